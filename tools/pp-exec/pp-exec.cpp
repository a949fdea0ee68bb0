//===- pp-exec.cpp - run functions on tensors on the CPU ------------------===//
//
// pp-exec FILE --entry=F [--inputs=a.npy,...] [--seed=N] [--outputs=DIR]
// pp-exec FILE --entry=F --compare=G [--tolerance=T]
// pp-exec FILE --entry=F --check-gradients --gradient=G [--wrt=0,2]
// pp-exec FILE --measure-stages[=PIPELINE] [--repetitions=N] [-o OUT]
//
// JIT-compiles the functions of a module on tensors (lib/Execution: MLIR's
// lowering, LLVM's ORC JIT) and runs them; --measure-stages times the functions
// of a pipeline's stages and writes the medians into the stages' costs. See
// docs/Execution.md.
//
//===----------------------------------------------------------------------===//

#include "pp/Execution/Measure.h"
#include "pp/Execution/Runner.h"
#include "pp/Support/Version.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

using namespace mlir;
using namespace mlir::pp::exec;
namespace cl = llvm::cl;

static cl::OptionCategory category("pp-exec options");

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<input .mlir file>"),
                                          cl::init("-"), cl::cat(category));
static cl::opt<std::string> entry("entry",
                                  cl::desc("The function to run (required)"),
                                  cl::value_desc("NAME"), cl::cat(category));
static cl::opt<std::string>
    inputs("inputs",
           cl::desc("Comma-separated .npy files, one per argument; an empty "
                    "entry means seeded random values for that argument"),
           cl::value_desc("a.npy,b.npy,..."), cl::cat(category));
static cl::opt<uint64_t>
    seed("seed", cl::desc("Seed of the pseudo-random inputs (default 0)"),
         cl::init(0), cl::value_desc("n"), cl::cat(category));
static cl::opt<std::string>
    outputs("outputs",
            cl::desc("Write every result as DIR/<function>.result<i>.npy"),
            cl::value_desc("DIR"), cl::cat(category));
static cl::opt<std::string>
    saveInputs("save-inputs",
               cl::desc("Write the inputs as DIR/<function>.arg<i>.npy"),
               cl::value_desc("DIR"), cl::cat(category));
static cl::opt<unsigned>
    printValues("print-values",
                cl::desc("How many leading values of each result to print "
                         "(default 8)"),
                cl::init(8), cl::value_desc("n"), cl::cat(category));
static cl::opt<std::string>
    compare("compare",
            cl::desc("Run --entry and this function on the same inputs and "
                     "compare all results (bitwise, unless --tolerance)"),
            cl::value_desc("G"), cl::cat(category));
static cl::opt<bool> checkGradientsFlag(
    "check-gradients",
    cl::desc("Check --gradient=G against central finite differences of the "
             "scalar loss --entry=F"),
    cl::cat(category));
static cl::opt<std::string>
    gradient("gradient",
             cl::desc("G(args) -> (loss, dL/d arg for each --wrt argument)"),
             cl::value_desc("G"), cl::cat(category));
static cl::opt<std::string>
    wrt("wrt",
        cl::desc("The arguments G returns gradients for, in increasing order "
                 "(default: every float argument)"),
        cl::value_desc("i,j,..."), cl::cat(category));
static cl::opt<unsigned>
    directions("directions",
               cl::desc("Random directions per checked argument (default 3)"),
               cl::init(3), cl::value_desc("n"), cl::cat(category));
static cl::opt<unsigned>
    coordinates("coordinates",
                cl::desc("Random coordinates per checked argument (default 8)"),
                cl::init(8), cl::value_desc("n"), cl::cat(category));
static cl::opt<double>
    epsilon("epsilon",
            cl::desc("Relative finite-difference step (default 1e-6 when F is "
                     "evaluated in f64, 1e-3 in f32)"),
            cl::value_desc("x"), cl::cat(category));
static cl::opt<double>
    tolerance("tolerance",
              cl::desc("Largest accepted relative error (gradient check "
                       "default: 1e-2 for f32, 1e-6 for f64; --compare "
                       "default: bitwise equality)"),
              cl::value_desc("x"), cl::cat(category));
static cl::opt<std::string> fdPrecision(
    "fd-precision",
    cl::desc("Precision of the finite differences: f64 (default; F is "
             "recompiled with f32 promoted to f64) or f32 (F as written)"),
    cl::init("f64"), cl::value_desc("f64|f32"), cl::cat(category));
static cl::opt<bool> verbose("verbose",
                             cl::desc("Print every gradient-check sample"),
                             cl::cat(category));
static cl::opt<unsigned>
    optLevel("O",
             cl::desc("LLVM optimization level 0-3 (default 2, as "
                      "pp-run)"),
             cl::init(2), cl::Prefix, cl::value_desc("level"),
             cl::cat(category));
static cl::opt<bool> noInterchange(
    "no-interchange",
    cl::desc("Keep linalg loop orders as written (no locality interchange)"),
    cl::cat(category));
static cl::opt<bool> noVectorize(
    "no-vectorize",
    cl::desc("Lower linalg ops to scalar loop nests (no register tiling and "
             "vectorization)"),
    cl::cat(category));
static cl::opt<bool> noBlas(
    "no-blas",
    cl::desc("Lower GEMMs to generated loops too (default: OpenBLAS through "
             "the runtime's pprt_cpu_gemm_*)"),
    cl::cat(category));
static cl::opt<bool> noIm2col(
    "no-im2col",
    cl::desc("Lower convolutions (forward and weight gradient) to generated "
             "loops (default: im2col's column matrix, then OpenBLAS GEMMs, "
             "pp-im2col)"),
    cl::cat(category));
static cl::opt<bool>
    printLowered("print-lowered",
                 cl::desc("Print the lowered LLVM-dialect module to stderr"),
                 cl::cat(category));
static cl::opt<bool> timing("timing",
                            cl::desc("Print compile and run times to stderr"),
                            cl::cat(category));

static cl::opt<std::string> measureStagesOpt(
    "measure-stages",
    cl::desc("Time the functions of every stage of the pipeline PIPELINE "
             "(default: the only one) and write the medians into the "
             "stages' costs, in microseconds"),
    cl::value_desc("PIPELINE"), cl::ValueOptional, cl::cat(category));
static cl::opt<unsigned>
    repetitions("repetitions",
                cl::desc("Timed runs of each stage function after one "
                         "warm-up run, for --measure-stages (default 5); "
                         "when running one function, how many times to run "
                         "it (--timing prints the best)"),
                cl::init(5), cl::value_desc("N"), cl::cat(category));
static cl::opt<std::string> outputFilename(
    "o",
    cl::desc("Where --measure-stages writes the module with the measured "
             "costs (default: stdout, with the table on stderr)"),
    cl::value_desc("OUT.mlir"), cl::init("-"), cl::cat(category));

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "pp-exec") << message << "\n";
  return 1;
}

/// Checks that the flags belong together; returns the complaint or "".
static std::string checkFlags() {
  bool measuring = measureStagesOpt.getNumOccurrences() > 0;
  if (measuring) {
    for (auto [used, name] :
         {std::make_pair(!entry.empty(), "--entry"),
          std::make_pair(!compare.empty(), "--compare"),
          std::make_pair(checkGradientsFlag.getValue(), "--check-gradients"),
          std::make_pair(!inputs.empty(), "--inputs"),
          std::make_pair(!outputs.empty(), "--outputs"),
          std::make_pair(!saveInputs.empty(), "--save-inputs")})
      if (used)
        return std::string("--measure-stages cannot be combined with ") + name;
  } else {
    if (repetitions.getNumOccurrences() &&
        (!compare.empty() || checkGradientsFlag))
      return "--repetitions is only used with --measure-stages or when "
             "running one function";
    if (outputFilename.getNumOccurrences())
      return "-o is only used with --measure-stages";
  }
  if (repetitions == 0)
    return "--repetitions must be at least 1";
  if (!measuring && entry.empty())
    return "--entry=NAME is required (or --measure-stages)";
  if (checkGradientsFlag && !compare.empty())
    return "--check-gradients and --compare cannot be combined";
  if (checkGradientsFlag && gradient.empty())
    return "--check-gradients needs --gradient=G";
  if (!checkGradientsFlag && !gradient.empty())
    return "--gradient is only used with --check-gradients";
  if (!checkGradientsFlag && !wrt.empty())
    return "--wrt is only used with --check-gradients";
  if (fdPrecision != "f64" && fdPrecision != "f32")
    return "--fd-precision must be f64 or f32";
  if (optLevel > 3)
    return "-O must be 0, 1, 2 or 3";
  return "";
}

/// The request the flags describe (not --measure-stages).
static llvm::Expected<RunRequest> requestFromFlags(const JitOptions &jit) {
  RunRequest request;
  request.mode = !compare.empty()     ? RunRequest::Mode::Compare
                 : checkGradientsFlag ? RunRequest::Mode::CheckGradients
                                      : RunRequest::Mode::Run;
  request.sourceName = inputFilename;
  request.entry = entry;
  request.other = !compare.empty() ? compare.getValue() : gradient.getValue();
  if (!inputs.empty()) {
    llvm::SmallVector<llvm::StringRef> files;
    llvm::StringRef(inputs).split(files, ',', -1, /*KeepEmpty=*/true);
    for (llvm::StringRef file : files)
      request.inputFiles.push_back(file.str());
  }
  request.seed = seed;
  request.outputsDir = outputs;
  request.saveInputsDir = saveInputs;
  request.printValues = printValues;
  if (tolerance.getNumOccurrences())
    request.tolerance = tolerance;
  if (!wrt.empty()) {
    llvm::SmallVector<llvm::StringRef> items;
    llvm::StringRef(wrt).split(items, ',');
    for (llvm::StringRef item : items) {
      unsigned j;
      if (item.trim().getAsInteger(10, j))
        return llvm::createStringError("--wrt: '" + item +
                                       "' is not an argument index");
      request.gradient.wrt.push_back(j);
    }
    request.wrtGiven = true;
  }
  request.gradient.directions = directions;
  request.gradient.coordinates = coordinates;
  if (epsilon.getNumOccurrences())
    request.gradient.epsilon = epsilon;
  request.gradient.tolerance = request.tolerance;
  request.gradient.seed = seed;
  request.gradient.verbose = verbose;
  request.finiteDifferencesInF64 = fdPrecision == "f64";
  request.repetitions = repetitions.getNumOccurrences() ? repetitions : 1;
  request.timing = timing;
  request.jit = jit;
  return request;
}

/// --measure-stages: times every stage function and writes the module with
/// the measured costs.
static int measure(ModuleOp module, const JitOptions &jit) {
  MeasureOptions options;
  options.pipeline = measureStagesOpt;
  options.repetitions = repetitions;
  options.seed = seed;
  options.jit = jit;
  std::string errorMessage;
  auto output = openOutputFile(outputFilename, &errorMessage);
  if (!output)
    return fail(errorMessage);
  // The table goes to stdout, unless the module does.
  llvm::raw_ostream &table =
      outputFilename == "-" ? llvm::errs() : llvm::outs();
  auto start = std::chrono::steady_clock::now();
  std::string error;
  if (failed(measureStages(module, options, table, error)))
    return error.empty() ? 1 : fail(error);
  if (timing) {
    std::chrono::duration<double, std::milli> ms =
        std::chrono::steady_clock::now() - start;
    llvm::errs() << "pp-exec: compiled and measured in "
                 << llvm::format("%.1f", ms.count()) << " ms\n";
  }
  module.print(output->os());
  output->os() << "\n";
  output->keep();
  llvm::outs().flush();
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::pp::setVersionPrinter("pp-exec");
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "pp-exec: JIT-compile and run functions on tensors on the CPU\n\n"
      "  pp-exec FILE --entry=F [--inputs=a.npy,...] [--seed=N] "
      "[--outputs=DIR]\n"
      "  pp-exec FILE --entry=F --compare=G [--tolerance=T]\n"
      "  pp-exec FILE --entry=F --check-gradients --gradient=G [--wrt=0,2]\n"
      "  pp-exec FILE --measure-stages[=PIPELINE] [--repetitions=N] "
      "[-o OUT.mlir]\n\n"
      "See docs/Execution.md.\n");
  if (std::string complaint = checkFlags(); !complaint.empty())
    return fail(complaint);

  DialectRegistry registry;
  registerExecDialects(registry);
  MLIRContext context(registry);
  context.disableMultithreading();
  // Diagnostics point at the source; the op in its lowered form is noise.
  context.printOpOnDiagnostic(false);
  std::string errorMessage;
  auto file = openInputFile(inputFilename, &errorMessage);
  if (!file)
    return fail(errorMessage);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail("cannot parse " + inputFilename);

  JitOptions jit;
  jit.optLevel = optLevel;
  jit.interchange = !noInterchange;
  jit.vectorize = !noVectorize;
  jit.blas = !noBlas;
  jit.im2col = !noIm2col;
  if (printLowered)
    jit.printLowered = &llvm::errs();
  if (measureStagesOpt.getNumOccurrences())
    return measure(*module, jit);
  llvm::Expected<RunRequest> request = requestFromFlags(jit);
  if (!request)
    return fail(llvm::toString(request.takeError()));
  llvm::Expected<bool> pass = runFunctions(*module, *request, llvm::outs());
  llvm::outs().flush();
  if (!pass) {
    std::string message = llvm::toString(pass.takeError());
    return message.empty() ? 1 : fail(message);
  }
  return *pass ? 0 : 1;
}
