//===- pp-exec.cpp - run functions on tensors on the CPU ------------------===//
//
// pp-exec FILE --entry=F [--inputs=a.npy,...] [--seed=N] [--outputs=DIR]
// pp-exec FILE --entry=F --compare=G [--tolerance=T]
// pp-exec FILE --entry=F --check-gradients --gradient=G [--wrt=0,2]
// pp-exec FILE --measure-stages[=PIPELINE] [--repetitions=N] [-o OUT]
//
// JIT-compiles the functions of a module on tensors with MLIR's
// ExecutionEngine and runs them; --measure-stages times the functions of a
// pipeline's stages and writes the medians into the stages' costs. See
// docs/Execution.md.
//
//===----------------------------------------------------------------------===//

#include "Checks.h"
#include "HostTensor.h"
#include "Jit.h"
#include "Measure.h"
#include "Npy.h"

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
using namespace ppexec;
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
         cl::init(0), cl::cat(category));
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
                cl::init(8), cl::cat(category));
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
               cl::init(3), cl::cat(category));
static cl::opt<unsigned>
    coordinates("coordinates",
                cl::desc("Random coordinates per checked argument (default 8)"),
                cl::init(8), cl::cat(category));
static cl::opt<double>
    epsilon("epsilon",
            cl::desc("Relative finite-difference step (default 1e-6 when F is "
                     "evaluated in f64, 1e-3 in f32)"),
            cl::cat(category));
static cl::opt<double>
    tolerance("tolerance",
              cl::desc("Largest accepted relative error (gradient check "
                       "default: 1e-2 for f32, 1e-6 for f64; --compare "
                       "default: bitwise equality)"),
              cl::cat(category));
static cl::opt<std::string> fdPrecision(
    "fd-precision",
    cl::desc("Precision of the finite differences: f64 (default; F is "
             "recompiled with f32 promoted to f64) or f32 (F as written)"),
    cl::init("f64"), cl::value_desc("f64|f32"), cl::cat(category));
static cl::opt<bool> verbose("verbose",
                             cl::desc("Print every gradient-check sample"),
                             cl::cat(category));
static cl::opt<unsigned>
    optLevel("O", cl::desc("LLVM optimization level 0-3 (default 3)"),
             cl::init(3), cl::Prefix, cl::cat(category));
static cl::opt<bool> noInterchange(
    "no-interchange",
    cl::desc("Keep linalg loop orders as written (no locality interchange)"),
    cl::cat(category));
static cl::opt<bool> noVectorize(
    "no-vectorize",
    cl::desc("Lower linalg ops to scalar loop nests (no register tiling and "
             "vectorization)"),
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
                cl::init(5), cl::cat(category));
static cl::opt<std::string> outputFilename(
    "o",
    cl::desc("Where --measure-stages writes the module with the measured "
             "costs (default: stdout, with the table on stderr)"),
    cl::value_desc("OUT.mlir"), cl::init("-"), cl::cat(category));

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "pp-exec") << message << "\n";
  return 1;
}

static std::string functionList(ModuleOp module) {
  std::string names;
  for (auto fn : module.getOps<func::FuncOp>())
    if (!fn.isExternal())
      names += (names.empty() ? "@" : ", @") + fn.getSymName().str();
  return names.empty() ? "none" : names;
}

static void printResults(llvm::raw_ostream &os, const FunctionSignature &sig,
                         llvm::ArrayRef<HostTensor> results) {
  for (auto [r, t] : llvm::enumerate(results)) {
    double sum = 0, sumSq = 0;
    for (int64_t i = 0; i < t.size(); ++i) {
      double v = t.get(i);
      sum += v;
      sumSq += v * v;
    }
    os << "@" << sig.name << " result " << r << ": " << t.spec().str() << "\n";
    os << "  sum = " << formatDouble(sum)
       << ", sum of squares = " << formatDouble(sumSq) << "\n";
    int64_t shown = std::min<int64_t>(printValues, t.size());
    if (shown == t.size())
      os << "  values = [";
    else
      os << "  values (first " << shown << " of " << t.size() << ") = [";
    for (int64_t i = 0; i < shown; ++i)
      os << (i ? ", " : "") << formatValue(t.kind(), t.get(i));
    os << "]\n";
  }
}

static llvm::Error writeAll(llvm::StringRef dir, llvm::StringRef function,
                            llvm::StringRef what,
                            llvm::ArrayRef<HostTensor> tensors) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError(
        dir + ": cannot create directory: " + ec.message());
  for (auto [i, t] : llvm::enumerate(tensors)) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path,
                            function + "." + what + std::to_string(i) + ".npy");
    if (llvm::Error e = writeNpy(path, t))
      return e;
  }
  return llvm::Error::success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
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

  // Options that belong together.
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
        return fail(llvm::Twine("--measure-stages cannot be combined with ") +
                    name);
    if (repetitions == 0)
      return fail("--repetitions must be at least 1");
  } else {
    if (repetitions.getNumOccurrences() &&
        (!compare.empty() || checkGradientsFlag))
      return fail("--repetitions is only used with --measure-stages or when "
                  "running one function");
    if (repetitions == 0)
      return fail("--repetitions must be at least 1");
    if (outputFilename.getNumOccurrences())
      return fail("-o is only used with --measure-stages");
  }
  if (!measuring && entry.empty())
    return fail("--entry=NAME is required (or --measure-stages)");
  if (checkGradientsFlag && !compare.empty())
    return fail("--check-gradients and --compare cannot be combined");
  if (checkGradientsFlag && gradient.empty())
    return fail("--check-gradients needs --gradient=G");
  if (!checkGradientsFlag && !gradient.empty())
    return fail("--gradient is only used with --check-gradients");
  if (!checkGradientsFlag && !wrt.empty())
    return fail("--wrt is only used with --check-gradients");
  if (fdPrecision != "f64" && fdPrecision != "f32")
    return fail("--fd-precision must be f64 or f32");
  if (optLevel > 3)
    return fail("-O must be 0, 1, 2 or 3");
  std::vector<unsigned> wrtList;
  if (!wrt.empty()) {
    llvm::SmallVector<llvm::StringRef> items;
    llvm::StringRef(wrt).split(items, ',');
    for (llvm::StringRef item : items) {
      unsigned j;
      if (item.trim().getAsInteger(10, j))
        return fail("--wrt: '" + item + "' is not an argument index");
      wrtList.push_back(j);
    }
  }

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

  JitOptions jitOptions;
  jitOptions.optLevel = optLevel;
  jitOptions.interchange = !noInterchange;
  jitOptions.vectorize = !noVectorize;
  if (printLowered)
    jitOptions.printLowered = &llvm::errs();

  if (measuring) {
    MeasureOptions options;
    options.pipeline = measureStagesOpt;
    options.repetitions = repetitions;
    options.seed = seed;
    options.jit = jitOptions;
    auto output = openOutputFile(outputFilename, &errorMessage);
    if (!output)
      return fail(errorMessage);
    // The table goes to stdout, unless the module does.
    bool moduleToStdout = outputFilename == "-";
    llvm::raw_ostream &table = moduleToStdout ? llvm::errs() : llvm::outs();
    using Clock = std::chrono::steady_clock;
    auto start = Clock::now();
    std::string error;
    if (failed(measureStages(*module, options, table, error)))
      return error.empty() ? 1 : fail(error);
    if (timing) {
      std::chrono::duration<double, std::milli> ms = Clock::now() - start;
      llvm::errs() << "pp-exec: compiled and measured in "
                   << llvm::format("%.1f", ms.count()) << " ms\n";
    }
    module->print(output->os());
    output->os() << "\n";
    output->keep();
    llvm::outs().flush();
    return 0;
  }

  auto lookup = [&](llvm::StringRef name) -> func::FuncOp {
    return SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        *module, StringAttr::get(&context, name));
  };
  func::FuncOp fOp = lookup(entry);
  if (!fOp)
    return fail("no function @" + entry + " in " + inputFilename +
                " (functions: " + functionList(*module) + ")");
  FailureOr<FunctionSignature> f = getSignature(fOp);
  if (failed(f))
    return 1;
  std::vector<FunctionSignature> entries{*f};

  std::string otherName =
      !compare.empty() ? compare.getValue() : gradient.getValue();
  func::FuncOp gOp;
  FailureOr<FunctionSignature> g = failure();
  if (!otherName.empty()) {
    gOp = lookup(otherName);
    if (!gOp)
      return fail("no function @" + otherName + " in " + inputFilename +
                  " (functions: " + functionList(*module) + ")");
    g = getSignature(gOp);
    if (failed(g))
      return 1;
    if (!compare.empty() && failed(verifyComparable(gOp, *f, *g)))
      return 1;
    if (checkGradientsFlag && failed(verifyGradientSignatures(
                                  fOp, gOp, *f, *g, wrtList, !wrt.empty())))
      return 1;
    if (g->name != f->name)
      entries.push_back(*g);
  }

  // Inputs: .npy files where given, seeded random values elsewhere.
  llvm::SmallVector<llvm::StringRef> files;
  if (!inputs.empty()) {
    llvm::StringRef(inputs).split(files, ',', -1, /*KeepEmpty=*/true);
    if (files.size() != f->args.size())
      return fail("@" + f->name + " takes " + llvm::Twine(f->args.size()) +
                  " argument" + (f->args.size() == 1 ? "" : "s") +
                  " but --inputs names " + llvm::Twine(files.size()) + " file" +
                  (files.size() == 1 ? "" : "s"));
  }
  std::vector<HostTensor> args;
  for (auto [i, spec] : llvm::enumerate(f->args)) {
    llvm::StringRef path = i < files.size() ? files[i].trim() : "";
    if (path.empty()) {
      HostTensor t(spec);
      SplitMix64 rng(seed + (static_cast<uint64_t>(i) << 32));
      fillRandom(t, rng);
      args.push_back(std::move(t));
      continue;
    }
    llvm::Expected<HostTensor> t = readNpy(path);
    if (!t)
      return fail(llvm::toString(t.takeError()));
    if (t->spec() != spec)
      return fail("input " + llvm::Twine(i) + " (" + path + ") is " +
                  numpyName(t->kind()) + " " + t->spec().shapeStr() +
                  ", but argument " + llvm::Twine(i) + " of @" + f->name +
                  " is " + spec.str() + " (" + numpyName(spec.kind) + " " +
                  spec.shapeStr() + ")");
    args.push_back(std::move(*t));
  }
  if (!saveInputs.empty())
    if (llvm::Error e = writeAll(saveInputs, f->name, "arg", args))
      return fail(llvm::toString(std::move(e)));

  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  std::vector<std::string> names;
  for (const FunctionSignature &sig : entries)
    names.push_back(sig.name);
  FailureOr<OwningOpRef<ModuleOp>> prepared =
      prepareForExecution(*module, names);
  if (failed(prepared))
    return fail("cannot compile " + inputFilename + " for execution");
  // Counted before compiling, which lowers the module in place.
  double entryFlops = timing ? countFlops(**prepared, f->name) : 0.0;
  FailureOr<std::unique_ptr<JitModule>> jit =
      JitModule::compile(**prepared, names, jitOptions);
  if (failed(jit))
    return fail("cannot compile " + inputFilename + " for execution");

  // For --check-gradients, F recompiled in f64 is the reference of the
  // finite differences, unless F cannot be (then F as written is).
  std::unique_ptr<JitModule> reference;
  std::string referenceNote;
  bool hasF32 = f->results[0].kind == ElemKind::F32;
  for (const TensorSpec &arg : f->args)
    hasF32 |= arg.kind == ElemKind::F32;
  if (checkGradientsFlag && fdPrecision == "f64" && hasF32) {
    // Failures here are reported as a note, not as errors.
    std::string firstError;
    ScopedDiagnosticHandler capture(&context, [&](Diagnostic &diag) {
      if (firstError.empty() && diag.getSeverity() == DiagnosticSeverity::Error)
        firstError = diag.str();
      return success();
    });
    FailureOr<OwningOpRef<ModuleOp>> promoted =
        prepareForExecution(*module, {f->name});
    std::string reason;
    JitOptions referenceOptions = jitOptions;
    referenceOptions.printLowered = nullptr;
    if (succeeded(promoted) && succeeded(promoteF32ToF64(**promoted, reason))) {
      FailureOr<std::unique_ptr<JitModule>> compiled =
          JitModule::compile(**promoted, {f->name}, referenceOptions);
      if (succeeded(compiled))
        reference = std::move(*compiled);
      else
        reason = firstError;
    } else if (reason.empty()) {
      reason = firstError;
    }
    if (!reference)
      referenceNote = "@" + f->name + " cannot be recompiled in f64: " + reason;
  } else if (checkGradientsFlag && fdPrecision == "f32" && hasF32) {
    referenceNote = "--fd-precision=f32";
  }
  auto compiled = Clock::now();

  std::vector<HostTensor> fResults, gResults;
  bool pass = true;
  double bestRunUs = 0;
  if (!compare.empty()) {
    std::optional<double> tol;
    if (tolerance.getNumOccurrences())
      tol = tolerance;
    llvm::Expected<bool> ok = compareFunctions(
        **jit, *f, *g, args, tol, llvm::outs(), &fResults, &gResults);
    if (!ok)
      return fail(llvm::toString(ok.takeError()));
    pass = *ok;
  } else if (checkGradientsFlag) {
    GradientCheckOptions options;
    options.wrt = wrtList;
    options.directions = directions;
    options.coordinates = coordinates;
    if (epsilon.getNumOccurrences())
      options.epsilon = epsilon;
    if (tolerance.getNumOccurrences())
      options.tolerance = tolerance;
    options.seed = seed;
    options.verbose = verbose;
    llvm::Expected<bool> ok =
        checkGradients(**jit, reference.get(), referenceNote, *f, *g, args,
                       options, llvm::outs(), &fResults, &gResults);
    if (!ok)
      return fail(llvm::toString(ok.takeError()));
    pass = *ok;
  } else {
    std::vector<const HostTensor *> argPtrs;
    for (const HostTensor &t : args)
      argPtrs.push_back(&t);
    // --repetitions=N: N timed runs of the compiled function alone; the
    // results are those of the last.
    unsigned runs = repetitions.getNumOccurrences() ? repetitions : 1;
    for (unsigned r = 0; r < runs; ++r) {
      double us = 0;
      if (llvm::Error e = (*jit)->run(f->name, argPtrs, fResults, &us))
        return fail(llvm::toString(std::move(e)));
      bestRunUs = r == 0 ? us : std::min(bestRunUs, us);
    }
    if (timing) {
      llvm::errs() << "pp-exec: @" << f->name << " best of " << runs
                   << " run" << (runs == 1 ? "" : "s") << ": "
                   << llvm::format("%.3f", bestRunUs / 1000.0) << " ms, "
                   << llvm::format("%.4g", entryFlops / 1e9) << " GFLOP, "
                   << llvm::format("%.3f", entryFlops / (bestRunUs * 1e3))
                   << " GFLOP/s\n";
    }
    printResults(llvm::outs(), *f, fResults);
  }
  auto ran = Clock::now();
  if (timing) {
    auto ms = [](auto d) {
      return std::chrono::duration<double, std::milli>(d).count();
    };
    llvm::errs() << "pp-exec: compile "
                 << llvm::format("%.1f", ms(compiled - start)) << " ms, run "
                 << llvm::format("%.1f", ms(ran - compiled)) << " ms\n";
  }

  if (!outputs.empty()) {
    if (llvm::Error e = writeAll(outputs, f->name, "result", fResults))
      return fail(llvm::toString(std::move(e)));
    if (succeeded(g) && g->name != f->name)
      if (llvm::Error e = writeAll(outputs, g->name, "result", gResults))
        return fail(llvm::toString(std::move(e)));
  }
  llvm::outs().flush();
  return pass ? 0 : 1;
}
