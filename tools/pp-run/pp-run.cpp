//===- pp-run.cpp - compile a model into a pipeline and train it ----------===//
//
// pp-run MODEL.mlir --function=F [--parameters=i,j,...] [--loss=KIND]
//        --ranks=P [--stages-per-rank=V] --microbatches=M --schedule=NAME
//        [--steps=N] [--lr=X] [--transport=inproc|mpi] [--trace=FILE]
//        [--check] [--seed=S] [--timeout=SECONDS]
//
// Prepares the model (pp-strip-instrumentation, pp-lift-parameters,
// pp-append-loss, pp-prepare-model), cuts it into P*V stages
// (pp-partition, pp-place-stages), gives every stage F, B and W
// (pp-differentiate-stages), schedules and verifies it (pp-plan), turns
// every rank's program into code (convert-pp-to-runtime), JIT-compiles it
// and trains N steps of M micro-batches with SGD on P ranks of the runtime
// (runtime/), printing the loss of every step, the measured timeline, and,
// with --check, a comparison with the unpipelined model. See docs/Runtime.md.
//
//===----------------------------------------------------------------------===//

#include "HostTensor.h"
#include "Jit.h"
#include "Npy.h"
#include "ParameterInit.h"

#include "pp/Dialect/PP/IR/PPDialect.h"
#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"
#include "pp/Dialect/PP/Transforms/Passes.h"
#include "pp/Schedule/Schedule.h"
#include "pprt/Runtime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include "pprt/Cuda.h"

#include "llvm/Support/Path.h"

#include <cstdlib>
#include <dlfcn.h>

#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>

using namespace mlir;
using namespace ppexec;
namespace cl = llvm::cl;
namespace sched = mlir::pp::sched;

static cl::OptionCategory category("pp-run options");
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<model.mlir>"),
                                      cl::Required, cl::cat(category));
static cl::opt<std::string>
    functionName("function", cl::desc("The model function (required)"),
                 cl::value_desc("NAME"), cl::cat(category));
static cl::list<int64_t> parameterList(
    "parameters", cl::CommaSeparated,
    cl::desc("Arguments that are parameters (default: those marked "
             "pp.parameter, or lifted weight constants)"),
    cl::cat(category));
static cl::opt<int64_t> minElements(
    "min-elements",
    cl::desc("Weight constants with at least this many elements become "
             "parameters (pp-lift-parameters; default 1024)"),
    cl::init(1024), cl::cat(category));
static cl::opt<std::string>
    lossKind("loss",
             cl::desc("Append a loss: mse, cross-entropy, or none when the "
                      "function already returns a scalar loss (default)"),
             cl::init("none"), cl::cat(category));
static cl::opt<int> numRanks("ranks", cl::desc("Number of ranks P"),
                             cl::init(0), cl::cat(category));
static cl::opt<int> stagesPerRank("stages-per-rank",
                                  cl::desc("Stages per rank V (default 1)"),
                                  cl::init(1), cl::cat(category));
static cl::opt<int> numMicrobatches("microbatches",
                                    cl::desc("Micro-batches per step M"),
                                    cl::init(0), cl::cat(category));
static cl::opt<std::string> scheduleName(
    "schedule", cl::desc("gpipe, 1f1b, interleaved-1f1b, looped-bfs, zb-h1, "
                         "zb-h2, zb-v, dualpipe-v, auto"),
    cl::cat(category));
static cl::opt<int> numSteps("steps", cl::desc("Training steps (default 1)"),
                             cl::init(1), cl::cat(category));
static cl::opt<double> learningRate("lr",
                                    cl::desc("SGD learning rate (default 0.01)"),
                                    cl::init(0.01), cl::cat(category));
static cl::opt<std::string>
    transport("transport",
              cl::desc("inproc (threads, default), mpi, or nccl (with "
                       "--device=cuda: one process per GPU)"),
              cl::init("inproc"), cl::cat(category));
static cl::opt<std::string>
    deviceKind("device",
               cl::desc("Where stages run: cpu (default), cuda (rank "
                        "programs compiled by pp-lower-stages-to-gpu; see "
                        "docs/GPU.md), or cuda-emu (the same compilation "
                        "with the kernels left as host loops, run with an "
                        "emulated CUDA plugin: tests the GPU path without a "
                        "GPU)"),
               cl::init("cpu"), cl::cat(category));
static cl::opt<std::string>
    gpuChip("chip", cl::desc("GPU architecture for --device=cuda (default "
                             "sm_90)"),
            cl::init("sm_90"), cl::cat(category));
static cl::opt<std::string> cudaPlugin(
    "cuda-plugin",
    cl::desc("The CUDA plugin to load for --device=cuda (default: "
             "$PPRT_CUDA_PLUGIN, else libPPRuntimeCUDA.so beside "
             "libPPRuntime.so)"),
    cl::value_desc("PATH"), cl::cat(category));
static cl::opt<int64_t> workspaceMiB(
    "gpu-workspace-mib",
    cl::desc("Device memory per rank beyond the schedule's memory plan, for "
             "the intermediate buffers of stage functions (MiB, default "
             "256)"),
    cl::init(256), cl::cat(category));
static cl::opt<std::string>
    traceFile("trace",
              cl::desc("Write the last step's measured timeline here "
                       "(Chrome trace JSON)"),
              cl::value_desc("FILE"), cl::cat(category));
static cl::opt<bool>
    check("check",
          cl::desc("Compare the first step's loss and every parameter "
                   "gradient with the unpipelined model"),
          cl::cat(category));
static cl::opt<uint64_t> seed("seed",
                              cl::desc("Seed of the synthetic parameters and "
                                       "data (default 0)"),
                              cl::init(0), cl::cat(category));
static cl::opt<double>
    timeout("timeout",
            cl::desc("Seconds a rank waits for a message before the run "
                     "fails (default 60)"),
            cl::init(60.0), cl::cat(category));
static cl::list<std::string> inputFiles(
    "inputs", cl::CommaSeparated,
    cl::desc("NumPy .npy files, one per data argument of the loss function "
             "in argument order, each holding the M micro-batches stacked "
             "on a leading axis; an empty entry means synthetic data"),
    cl::value_desc("a.npy,b.npy,..."), cl::cat(category));
static cl::list<std::string> initialParameterFiles(
    "initial-parameters", cl::CommaSeparated,
    cl::desc("NumPy .npy files, one per parameter argument of the loss "
             "function in argument order, holding its initial value; an "
             "empty entry means a synthetic value (docs/Runtime.md, "
             "\"Initial parameters\")"),
    cl::value_desc("p0.npy,p1.npy,..."), cl::cat(category));
static cl::opt<bool> quiet("quiet",
                           cl::desc("No progress lines on standard error"),
                           cl::cat(category));
static cl::opt<bool> printIR("print-ir",
                             cl::desc("Print the compiled module (tensors; with "
                                      "--device=cuda the rank programs "
                                      "lowered for the GPU) and stop"),
                             cl::cat(category));

namespace {
/// Where a stage's parameters and stage 0's data come from in the model.
struct StagePlan {
  std::string rankFunction;
  /// For parameter k of stage s: the model's argument.
  std::vector<std::vector<unsigned>> parameterArgs;
  /// For data input k of stage 0: the model's argument.
  std::vector<unsigned> dataArgs;
};

/// Prints errors (and warnings) of the context; drops remarks (the
/// passes' reports, such as what pp-strip-instrumentation removed).
struct DiagnosticFilter : SourceMgrDiagnosticHandler {
  DiagnosticFilter(MLIRContext &ctx, llvm::SourceMgr &mgr)
      : SourceMgrDiagnosticHandler(mgr, &ctx) {
    ctx.getDiagEngine().registerHandler([](Diagnostic &diag) {
      // Handled (dropped) if a remark; otherwise on to the handler above.
      return success(diag.getSeverity() == DiagnosticSeverity::Remark);
    });
  }
};
} // namespace

/// Bounds of the integer options: far beyond any real pipeline, small
/// enough that products of them (stages, actions) stay in int.
constexpr int kMaxRanks = 1 << 16;
constexpr int kMaxMicrobatches = 1 << 20;
constexpr int kMaxStagesPerRank = 1 << 10;

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "pp-run") << message << "\n";
  return 1;
}

/// Runs the textual pipeline `text` ("builtin.module(...)") on `module`.
static LogicalResult runPipeline(ModuleOp module, const std::string &text) {
  FailureOr<OpPassManager> parsed = parsePassPipeline(text, llvm::errs());
  if (failed(parsed))
    return failure();
  PassManager pm(module.getContext());
  static_cast<OpPassManager &>(pm) = std::move(*parsed);
  return pm.run(module);
}

static std::string joinIndices(ArrayRef<unsigned> values) {
  std::string text;
  for (auto [i, v] : llvm::enumerate(values))
    text += (i ? "," : "") + std::to_string(v);
  return text;
}

static FailureOr<TensorSpec> specOf(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return failure();
  TensorSpec spec;
  std::optional<ElemKind> kind = elemKindOf(tensor.getElementType());
  if (!kind)
    return failure();
  spec.kind = *kind;
  spec.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
  return spec;
}

/// A synthetic parameter drawn by `rule` (ParameterInit.h), seeded by
/// --seed and the argument index.
static HostTensor initialParameter(const TensorSpec &spec, uint64_t index,
                                   const InitRule &rule) {
  HostTensor t(spec);
  if (!isFloat(spec.kind) || rule.kind == InitRule::Zero)
    return t;
  if (rule.kind == InitRule::One) {
    for (int64_t i = 0; i < t.size(); ++i)
      t.set(i, 1.0);
    return t;
  }
  SplitMix64 rng(seed * 1000003u + 17 * index + 1);
  fillRandom(t, rng);
  if (rule.kind == InitRule::FanIn) {
    double a = 1.0 / std::sqrt(static_cast<double>(rule.fanIn));
    for (int64_t i = 0; i < t.size(); ++i)
      t.set(i, t.get(i) * a);
  }
  return t;
}

/// Progress on standard error: "pp-run: [1.2 s] <what>".
class Progress {
public:
  explicit Progress(bool enabled) : enabled(enabled) {}
  void phase(const llvm::Twine &what) {
    if (enabled)
      llvm::errs() << "pp-run: [" << llvm::format("%.1f", seconds())
                   << " s] " << what << "\n";
  }
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  }
  bool enabled;

private:
  std::chrono::steady_clock::time_point start =
      std::chrono::steady_clock::now();
};

/// `value` printed with the printf format `format` (one double).
static std::string printfString(const char *format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

/// "nan", "inf", "-inf" or the value.
static std::string valueText(double v) { return formatDouble(v); }

/// Synthetic data: argument `arg` of micro-batch `mb`. The same M
/// micro-batches every step (one fixed batch), so that training fits them
/// and the loss falls.
static HostTensor syntheticData(const TensorSpec &spec, int mb, unsigned arg) {
  HostTensor t(spec);
  SplitMix64 rng((seed * 104729u + mb) * 131u + arg + 2);
  fillRandom(t, rng);
  return t;
}

/// acc += g elementwise, in the tensors' float type (as the runtime adds
/// gradients).
template <typename T>
static void addElements(HostTensor &acc, const HostTensor &g) {
  T *a = static_cast<T *>(acc.data());
  const T *b = static_cast<const T *>(g.data());
  for (int64_t i = 0, e = g.size(); i < e; ++i)
    a[i] += b[i];
}
static void addInto(HostTensor &acc, const HostTensor &g) {
  if (g.kind() == ElemKind::F64)
    addElements<double>(acc, g);
  else
    addElements<float>(acc, g);
}

static pprt_dtype dtypeOf(ElemKind kind) {
  return kind == ElemKind::F64 ? PPRT_F64 : PPRT_F32;
}

static std::vector<char> bytesOf(const HostTensor &t) {
  const char *p = static_cast<const char *>(t.data());
  return std::vector<char>(p, p + t.byteSize());
}

/// The CUDA plugin: --cuda-plugin, else $PPRT_CUDA_PLUGIN, else
/// libPPRuntimeCUDA.so in the directory libPPRuntime.so was loaded from.
static std::string cudaPluginPath(bool emulated) {
  if (!cudaPlugin.empty())
    return cudaPlugin;
  const char *name = emulated ? "libPPRuntimeGPUEmu.so" : "libPPRuntimeCUDA.so";
  if (const char *env = std::getenv("PPRT_CUDA_PLUGIN"); env && !emulated)
    return env;
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&pprt_send), &info) && info.dli_fname) {
    llvm::SmallString<256> dir(info.dli_fname);
    llvm::sys::path::remove_filename(dir);
    llvm::sys::path::append(dir, name);
    return std::string(dir);
  }
  return name;
}

/// Whether `fn` returns exactly one float scalar or one-element float
/// tensor: a loss pp-run can report and seed.
static bool returnsScalarLoss(func::FuncOp fn) {
  if (fn.getNumResults() != 1)
    return false;
  Type t = fn.getResultTypes().front();
  if (isa<FloatType>(t))
    return true;
  auto tensor = dyn_cast<RankedTensorType>(t);
  return tensor && tensor.hasStaticShape() && tensor.getNumElements() == 1 &&
         isa<FloatType>(tensor.getElementType());
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // The rank programs call the runtime (libPPRuntime.so, loaded with this
  // program): make the process's symbols visible to the JIT's checks.
  llvm::sys::DynamicLibrary::LoadLibraryPermanently(nullptr);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "pp-run: compile a model into a pipeline and train it on P ranks\n\n"
      "  pp-run MODEL.mlir --function=F --ranks=P --microbatches=M "
      "--schedule=NAME [--steps=N] [--check]\n\nSee docs/Runtime.md.\n");

  if (functionName.empty())
    return fail("--function is required (the model function)");
  if (numRanks < 1)
    return fail("--ranks must be at least 1");
  if (stagesPerRank < 1)
    return fail("--stages-per-rank must be at least 1");
  if (numMicrobatches.getNumOccurrences() == 0)
    return fail("--microbatches is required (micro-batches per step M)");
  if (numMicrobatches < 1)
    return fail("--microbatches must be at least 1");
  if (scheduleName.empty())
    return fail("--schedule is required");
  {
    std::vector<std::string> known = sched::scheduleNames();
    if (!llvm::is_contained(known, scheduleName))
      return fail("unknown schedule '" + scheduleName +
                  "'; known schedules: " + llvm::join(known, ", "));
  }
  bool vShape = scheduleName == "zb-v" || scheduleName == "dualpipe-v";
  if (vShape && stagesPerRank != 2)
    return fail(scheduleName + " places 2 stages on each rank in a V: use "
                "--stages-per-rank=2");
  if (numSteps < 0)
    return fail("--steps must be >= 0");
  if (lossKind != "none" && lossKind != "mse" && lossKind != "cross-entropy")
    return fail("--loss must be none, mse or cross-entropy, not '" +
                lossKind + "'");
  if (!std::isfinite(learningRate) || learningRate < 0)
    return fail("--lr must be a finite number >= 0, not " +
                valueText(learningRate));
  if (!std::isfinite(timeout) || !(timeout > 0) || timeout > 1e6)
    return fail("--timeout must be a finite number of seconds in (0, 1e6], "
                "not " + valueText(timeout));
  if (minElements < 0)
    return fail("--min-elements must be >= 0");
  if (numRanks > kMaxRanks)
    return fail("--ranks must be at most " + std::to_string(kMaxRanks));
  if (numMicrobatches > kMaxMicrobatches)
    return fail("--microbatches must be at most " +
                std::to_string(kMaxMicrobatches));
  if (stagesPerRank > kMaxStagesPerRank)
    return fail("--stages-per-rank must be at most " +
                std::to_string(kMaxStagesPerRank));
  bool emulated = deviceKind == "cuda-emu";
  bool onGPU = deviceKind == "cuda" || emulated;
  if (!onGPU && deviceKind != "cpu")
    return fail("--device must be cpu, cuda or cuda-emu, not '" + deviceKind +
                "'");
  if (transport == "nccl" && !onGPU)
    return fail("--transport=nccl needs --device=cuda");
  if (workspaceMiB < 0 || workspaceMiB > (int64_t(1) << 30))
    return fail("--gpu-workspace-mib must be in [0, 2^30]");

  // The world first: under MPI every process must reach MPI_Init.
  pprt::WorldOptions worldOptions;
  worldOptions.ranks = numRanks;
  // --print-ir only compiles: no plugin (so no nccl transport) is needed.
  worldOptions.transport = printIR ? std::string("inproc") : transport;
  worldOptions.timeoutSeconds = timeout;
  worldOptions.microbatches = numMicrobatches;
  // On a GPU: the plugin first (its device hooks go into the world's
  // options, and it registers the nccl transport).
  std::unique_ptr<pprt::cuda::Device> gpu;
  if (onGPU && !printIR) {
    std::string error;
    gpu = pprt::cuda::openCudaPlugin(cudaPluginPath(emulated), {}, error);
    if (!gpu && error.find("libcuda.so") != std::string::npos)
      error += " (no NVIDIA driver on this machine?)";
    if (!gpu)
      return fail("--device=" + deviceKind + ": " + error);
    gpu->fillDeviceMemory(worldOptions);
    if (transport == "nccl" && !gpu->registerNcclTransport(error))
      return fail("--transport=nccl: " + error);
  }
  std::string worldError;
  std::unique_ptr<pprt::World> world =
      pprt::World::create(worldOptions, worldError);
  if (!world)
    return fail(worldError);
  std::vector<int> localRanks = world->localRanks();
  bool leader = llvm::is_contained(localRanks, 0);

  Progress progress(!quiet && leader);
  DialectRegistry registry;
  registerExecDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  mlir::pp::registerAllPPPasses();
  llvm::SourceMgr sourceMgr;
  DiagnosticFilter diagnostics(context, sourceMgr);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(inputFile, sourceMgr, &context);
  if (!module)
    return 1;
  auto modelFn = module->lookupSymbol<func::FuncOp>(functionName);
  if (!modelFn)
    return fail("no function @" + functionName + " in " + inputFile);
  if (lossKind == "none" && !returnsScalarLoss(modelFn))
    return fail("@" + functionName + " returns " +
                llvm::formatv("{0:$[, ]}",
                              llvm::make_range(
                                  modelFn.getResultTypes().begin(),
                                  modelFn.getResultTypes().end()))
                    .str() +
                ", not a scalar loss: with --loss=none (the default) the "
                "model must return one float loss (f32 or a one-element "
                "tensor); pass --loss=mse or --loss=cross-entropy to append "
                "a loss to its output");

  // 1. Prepare the model and cut it into stages.
  int numStages = numRanks * stagesPerRank;
  std::string lossName = functionName;
  std::string prepare = "builtin.module(pp-strip-instrumentation";
  {
    std::string lift = "pp-lift-parameters{function=" + functionName +
                       " min-elements=" + std::to_string(minElements);
    if (!parameterList.empty()) {
      std::vector<unsigned> ps(parameterList.begin(), parameterList.end());
      lift += " parameters=" + joinIndices(ps);
    }
    prepare += "," + lift + "}";
  }
  if (lossKind != "none") {
    prepare += ",pp-append-loss{function=" + functionName + " kind=" +
               lossKind + "}";
    lossName = functionName + "_loss";
  }
  prepare += ",pp-prepare-model)";
  progress.phase("preparing @" + functionName);
  if (failed(runPipeline(*module, prepare)))
    return fail("preparing the model failed");
  std::string partition = "builtin.module(pp-partition{function=" + lossName +
                          " num-stages=" + std::to_string(numStages) +
                          " print-report=false}";
  if (stagesPerRank > 1 || vShape)
    partition += std::string(",pp-place-stages{placement=") +
                 (vShape ? "v" : "loop") +
                 " ranks=" + std::to_string(numRanks) + "}";
  partition += ")";
  progress.phase("partitioning into " + std::to_string(numStages) +
                 " stages");
  if (failed(runPipeline(*module, partition)))
    return fail("partitioning the model failed");

  SymbolTable symbols(*module);
  auto pipeline =
      symbols.lookup<mlir::pp::PipelineOp>(lossName + "_pipeline");
  auto lossFn = symbols.lookup<func::FuncOp>(lossName);
  auto staged = symbols.lookup<func::FuncOp>(lossName + "_staged");
  if (!pipeline || !lossFn || !staged)
    return fail("pp-partition did not produce @" + lossName + "_pipeline");

  // Parameters of the loss function (model arguments), for --check.
  std::vector<unsigned> parameterArgs;
  for (unsigned i = 0, e = lossFn.getNumArguments(); i < e; ++i)
    if (lossFn.getArgAttr(i, "pp.parameter"))
      parameterArgs.push_back(i);
  if (parameterArgs.empty())
    return fail("@" + lossName +
                " has no parameters: mark them with --parameters or "
                "pp.parameter");

  std::string schedule = lossName + "_pipeline_" + scheduleName;
  std::replace(schedule.begin(), schedule.end(), '-', '_');
  progress.phase("differentiating the stages (F, B, W)");
  if (failed(runPipeline(*module,
                         "builtin.module(pp-differentiate-stages)")))
    return fail("differentiating the stages failed");
  progress.phase("planning: " + scheduleName + ", " +
                 std::to_string(numMicrobatches) + " micro-batches");
  if (failed(runPipeline(*module, "builtin.module(pp-plan{schedule=" +
                                      scheduleName + " num-microbatches=" +
                                      std::to_string(numMicrobatches) + "})")))
    return fail("planning the schedule failed");
  std::string lower = "builtin.module(convert-pp-to-runtime";
  if (check)
    lower += ",pp-autodiff{function=" + lossName +
             " wrt=" + joinIndices(parameterArgs) + " cotangents=true}";
  lower += ")";
  progress.phase("lowering the rank programs");
  if (failed(runPipeline(*module, lower)))
    return fail("lowering the pipeline failed");
  if (printIR && !onGPU) {
    module->print(llvm::outs());
    return 0;
  }

  // 3. How the model's arguments reach the stages (through @<loss>_staged).
  SmallVector<mlir::pp::StageOp> stageOps = pipeline.getStagesByIndex();
  std::vector<std::vector<unsigned>> stageParams(numStages);
  std::vector<unsigned> stageData;
  {
    std::vector<func::CallOp> calls;
    for (auto call : staged.getBody().front().getOps<func::CallOp>())
      calls.push_back(call);
    if (static_cast<int>(calls.size()) != numStages)
      return fail("@" + lossName + "_staged does not call every stage once");
    std::map<unsigned, int> owner;
    for (int s = 0; s < numStages; ++s) {
      auto fn = symbols.lookup<func::FuncOp>(calls[s].getCallee());
      for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i) {
        auto arg = dyn_cast<BlockArgument>(calls[s].getOperand(i));
        bool isParameter = fn.getArgAttr(i, "pp.parameter") != nullptr;
        if (!isParameter) {
          if (s == 0) {
            if (!arg)
              return fail("stage 0 takes a value that is not a model argument");
            stageData.push_back(arg.getArgNumber());
          }
          continue;
        }
        if (!arg)
          return fail("a parameter of stage " + std::to_string(s) +
                      " is not a model argument");
        auto [it, inserted] = owner.try_emplace(arg.getArgNumber(), s);
        if (!inserted)
          return fail("parameter argument " +
                      std::to_string(arg.getArgNumber()) +
                      " is used by stages " + std::to_string(it->second) +
                      " and " + std::to_string(s) +
                      "; parameters shared between stages are not supported");
        stageParams[s].push_back(arg.getArgNumber());
      }
    }
  }
  std::vector<TensorSpec> argSpecs;
  for (Type t : lossFn.getArgumentTypes()) {
    FailureOr<TensorSpec> spec = specOf(t);
    if (failed(spec))
      return fail("@" + lossName + " takes " +
                  llvm::formatv("{0}", t).str() +
                  "; pp-run needs statically shaped tensors of f32, f64, i32 "
                  "or i64");
    argSpecs.push_back(*spec);
  }

  // Data from files: argument a's micro-batch m is slice m of its file.
  std::map<unsigned, HostTensor> dataFiles;
  {
    std::vector<unsigned> dataArgs;
    for (unsigned a = 0; a < argSpecs.size(); ++a)
      if (!llvm::is_contained(parameterArgs, a))
        dataArgs.push_back(a);
    if (inputFiles.size() > dataArgs.size())
      return fail("--inputs names " + std::to_string(inputFiles.size()) +
                  " files, but @" + lossName + " has " +
                  std::to_string(dataArgs.size()) + " data arguments");
    for (auto [i, path] : llvm::enumerate(inputFiles)) {
      if (path.empty())
        continue;
      unsigned a = dataArgs[i];
      llvm::Expected<HostTensor> t = readNpy(path);
      if (!t)
        return fail("--inputs: " + llvm::toString(t.takeError()));
      TensorSpec expected = argSpecs[a];
      expected.shape.insert(expected.shape.begin(), numMicrobatches);
      if (t->spec() != expected)
        return fail("--inputs: " + path + " holds " +
                    elemKindName(t->kind()) + " " + t->spec().shapeStr() +
                    ", but data argument " + std::to_string(a) + " of @" +
                    lossName + " takes " + argSpecs[a].str() +
                    " per micro-batch: expected " +
                    elemKindName(expected.kind) + " " + expected.shapeStr() +
                    " for " + std::to_string(numMicrobatches) +
                    " micro-batches");
      dataFiles.emplace(a, std::move(*t));
    }
  }

  // 4. JIT-compile the rank programs (and the reference).
  std::vector<std::string> rankFunctions;
  for (int r = 0; r < numRanks; ++r)
    rankFunctions.push_back(schedule + "_rank" + std::to_string(r));
  if (printIR) {
    // On a GPU: the rank programs as compiled for it (LLVM dialect, the
    // kernels' PTX in gpu.binary ops).
    FailureOr<OwningOpRef<ModuleOp>> prepared =
        prepareForExecution(*module, rankFunctions);
    if (failed(prepared) ||
        failed(lowerForGPU(**prepared, gpuChip, emulated)))
      return fail("compiling the rank programs for the GPU failed");
    (*prepared)->print(llvm::outs());
    return 0;
  }
  std::vector<std::string> entries;
  std::string gradName = lossName + "_grad";
  if (check)
    entries.push_back(gradName);
  // Weights pp-lift-parameters lifted from constants start from the model's
  // own values: @<function>_init returns them, in the order of the trailing
  // arguments it appended (pp-append-loss adds its target after them).
  std::string initName;
  unsigned firstLifted = 0;
  if (auto model = module->lookupSymbol<func::FuncOp>(functionName))
    if (auto ref = model->getAttrOfType<FlatSymbolRefAttr>("pp.initializer"))
      if (auto init = module->lookupSymbol<func::FuncOp>(ref.getValue())) {
        initName = init.getSymName().str();
        firstLifted = model.getNumArguments() - init.getNumResults();
        entries.push_back(initName);
      }
  std::vector<std::string> keep = entries;
  keep.insert(keep.end(), rankFunctions.begin(), rankFunctions.end());
  progress.phase("compiling " + std::to_string(numRanks) +
                 " rank programs" + (onGPU ? " for " + deviceKind : ""));
  auto compileStart = std::chrono::steady_clock::now();
  // On a GPU the rank programs are compiled for it and the reference and
  // initializer for the host, as two modules.
  std::unique_ptr<JitModule> hostJit, gpuJit;
  {
    ArrayRef<std::string> hostKeep = onGPU ? ArrayRef<std::string>(entries)
                                           : ArrayRef<std::string>(keep);
    if (!hostKeep.empty()) {
      FailureOr<OwningOpRef<ModuleOp>> prepared =
          prepareForExecution(*module, hostKeep);
      if (failed(prepared))
        return fail("preparing the compiled module for the JIT failed");
      FailureOr<std::unique_ptr<JitModule>> jit = JitModule::compile(
          **prepared, entries, JitOptions(),
          onGPU ? ArrayRef<std::string>() : ArrayRef<std::string>(rankFunctions));
      if (failed(jit))
        return fail("JIT compilation failed");
      hostJit = std::move(*jit);
    }
    if (onGPU) {
      FailureOr<OwningOpRef<ModuleOp>> prepared =
          prepareForExecution(*module, rankFunctions);
      if (failed(prepared))
        return fail("preparing the rank programs for the GPU failed");
      JitOptions gpuOptions;
      gpuOptions.gpuChip = gpuChip;
      gpuOptions.gpuEmulate = emulated;
      FailureOr<std::unique_ptr<JitModule>> jit =
          JitModule::compile(**prepared, {}, gpuOptions, rankFunctions);
      if (failed(jit))
        return fail("compiling the rank programs for the GPU failed");
      gpuJit = std::move(*jit);
    }
  }
  double compileSeconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - compileStart)
                              .count();
  using RankProgram = void (*)(pprt_rank *);
  std::vector<RankProgram> programs;
  for (const std::string &name : rankFunctions)
    programs.push_back(reinterpret_cast<RankProgram>(
        (onGPU ? gpuJit : hostJit)->lookupRaw(name)));

  // 5. Parameters: synthetic (ParameterInit.h), then the model's own values
  // of lifted weights, then --initial-parameters.
  if (initialParameterFiles.size() > parameterArgs.size())
    return fail("--initial-parameters names " +
                std::to_string(initialParameterFiles.size()) + " files, but @" +
                lossName + " has " + std::to_string(parameterArgs.size()) +
                " parameters");
  std::map<unsigned, HostTensor> parameters;
  std::map<unsigned, std::string> origin;
  for (unsigned a : parameterArgs) {
    InitRule rule = initRuleFor(lossFn, a);
    parameters[a] = initialParameter(argSpecs[a], a, rule);
    origin[a] = rule.str();
  }
  if (!initName.empty()) {
    std::vector<HostTensor> values;
    if (llvm::Error e = hostJit->run(initName, {}, values))
      return fail("@" + initName + " failed: " + llvm::toString(std::move(e)));
    for (auto [k, value] : llvm::enumerate(values)) {
      unsigned a = firstLifted + k;
      if (!parameters.count(a) || value.spec() != argSpecs[a])
        return fail("@" + initName + " result " + std::to_string(k) +
                    " does not match parameter argument " +
                    std::to_string(a) + " of @" + lossName);
      parameters[a] = std::move(value);
      origin[a] = "the model's constant";
    }
  }
  for (auto [k, path] : llvm::enumerate(initialParameterFiles)) {
    if (path.empty())
      continue;
    unsigned a = parameterArgs[k];
    llvm::Expected<HostTensor> t = readNpy(path);
    if (!t)
      return fail("--initial-parameters: " + llvm::toString(t.takeError()));
    if (t->spec() != argSpecs[a])
      return fail("--initial-parameters: " + path + " holds " +
                  elemKindName(t->kind()) + " " + t->spec().shapeStr() +
                  ", but parameter argument " + std::to_string(a) + " of @" +
                  lossName + " is " + argSpecs[a].str());
    parameters[a] = std::move(*t);
    origin[a] = path;
  }
  for (unsigned a : parameterArgs) {
    if (int64_t i = firstNonFinite(parameters[a]); i >= 0)
      return fail("the initial value of parameter argument " +
                  std::to_string(a) + " (" + origin[a] + ") is not finite at " +
                  parameters[a].indexStr(i) + " (" +
                  valueText(parameters[a].get(i)) + ")");
  }
  {
    std::string text;
    for (unsigned a : parameterArgs)
      text += (text.empty() ? "" : ", ") + std::string("argument ") +
              std::to_string(a) + ": " + origin[a];
    progress.phase("initial parameters: " + text);
  }
  for (int s = 0; s < numStages; ++s)
    for (auto [k, a] : llvm::enumerate(stageParams[s]))
      world->setParameter(s, k,
                          {bytesOf(parameters[a]), dtypeOf(argSpecs[a].kind)});

  if (leader) {
    llvm::outs() << "pp-run: @" << lossName << " on " << numRanks
                 << " ranks (" << transport
                 << (onGPU ? ", " + deviceKind : std::string())
                 << "), " << numStages
                 << " stages, " << numMicrobatches << " micro-batches, "
                 << scheduleName
                 << "; compiled in " << llvm::format("%.2f", compileSeconds)
                 << " s\n";
  }

  // The predicted stash peaks, for comparison with the measured ones; the
  // order in which each stage accumulates its micro-batches' gradients (its
  // W, or fused backward, actions in program order), for --check.
  auto scheduleOp = module->lookupSymbol<mlir::pp::ScheduleOp>(schedule);
  if (!scheduleOp)
    return fail("pp-plan did not produce @" + schedule);
  const sched::Schedule plan = mlir::pp::getScheduleModel(scheduleOp).schedule;
  sched::SimulationResult predicted =
      sched::simulate(mlir::pp::getPipelineModel(pipeline), plan);
  // Device memory of each local rank: the schedule's memory plan (the
  // stash peak pp-simulate predicts), the rank's parameters three times
  // (values, gradients, a copy in flight), and a workspace for the stage
  // functions' intermediates.
  if (onGPU) {
    std::vector<int64_t> parameterBytes(numRanks, 0);
    std::vector<int> stageRank(numStages, 0);
    for (auto [r, program] : llvm::enumerate(plan.ranks))
      for (const sched::Action &a : program)
        if (a.isCompute() && a.stage >= 0 && a.stage < numStages)
          stageRank[a.stage] = r;
    for (int s = 0; s < numStages; ++s)
      for (unsigned a : stageParams[s])
        parameterBytes[stageRank[s]] += parameters[a].byteSize();
    for (int r : localRanks) {
      int64_t pool = predicted.ranks[r].peakMemoryBytes +
                     3 * parameterBytes[r] + (workspaceMiB << 20);
      std::string error;
      if (!gpu->addRank(r, pool, error))
        return fail("rank " + std::to_string(r) + ": " + error);
      if (leader || localRanks.size() == 1)
        llvm::outs() << "rank " << r << ": " << gpu->description()
                     << ", device memory pool " << pool
                     << " bytes (stash plan "
                     << predicted.ranks[r].peakMemoryBytes << ")\n";
    }
  }
  std::vector<std::vector<int>> accumulationOrder(numStages);
  for (const auto &program : plan.ranks)
    for (const sched::Action &a : program)
      if (a.kind == sched::ActionKind::Backward ||
          a.kind == sched::ActionKind::BackwardWeight)
        accumulationOrder[a.stage].push_back(a.microbatch);

  // The first parameter (lowest model argument) whose gradient (or, with
  // `values`, whose value) is not finite on this process's stages; with
  // where it went bad in `what`. Under MPI each process sees its own
  // stages: firstBadParameter() agrees on the argument across processes.
  auto localBadParameter = [&](bool values, std::string &what) -> int64_t {
    int64_t best = -1;
    for (int st = 0; st < numStages; ++st)
      for (auto [k, a] : llvm::enumerate(stageParams[st])) {
        const pprt::Buffer *g = world->gradient(st, k);
        if (!g || (best >= 0 && a >= best))
          continue;
        const pprt::Buffer &b = values ? world->parameter(st, k) : *g;
        HostTensor t(argSpecs[a]);
        if (b.bytes.size() != t.byteSize())
          continue;
        std::memcpy(t.data(), b.bytes.data(), t.byteSize());
        if (int64_t i = firstNonFinite(t); i >= 0) {
          best = a;
          what = "stage " + std::to_string(st) + ", element " +
                 t.indexStr(i) + " = " + valueText(t.get(i));
        }
      }
    return best;
  };
  auto firstBadParameter = [&](bool values, std::string &what) -> int64_t {
    int64_t local = localBadParameter(values, what);
    double none = 1e18;
    double global =
        -world->allReduceMax(-(local >= 0 ? static_cast<double>(local) : none));
    if (global >= none)
      return -1;
    if (static_cast<int64_t>(global) != local)
      what = "on another process";
    return static_cast<int64_t>(global);
  };

  double firstLoss = 0, lastLoss = 0;
  double lastRateReport = progress.seconds();
  auto trainingStart = std::chrono::steady_clock::now();
  int64_t samplesPerMicrobatch =
      stageData.empty() || argSpecs[stageData.front()].shape.empty()
          ? 1
          : argSpecs[stageData.front()].shape.front();
  progress.phase("training " + std::to_string(numSteps) + " steps");
  for (int step = 1; step <= numSteps; ++step) {
    std::vector<std::vector<HostTensor>> data(numMicrobatches);
    for (int mb = 0; mb < numMicrobatches; ++mb)
      for (auto [k, a] : llvm::enumerate(stageData)) {
        if (auto it = dataFiles.find(a); it != dataFiles.end()) {
          HostTensor t(argSpecs[a]);
          size_t bytes = t.byteSize();
          std::memcpy(t.data(),
                      static_cast<const char *>(it->second.data()) + mb * bytes,
                      bytes);
          data[mb].push_back(std::move(t));
        } else {
          data[mb].push_back(syntheticData(argSpecs[a], mb, a));
        }
        world->setInput(mb, k, bytesOf(data[mb].back()));
      }
    auto start = std::chrono::steady_clock::now();
    bool ok = world->runStep([&](int rank, pprt_rank *handle) {
      if (!gpu) {
        programs[rank](handle);
        return;
      }
      std::string error;
      if (!gpu->bindRank(rank, handle, error)) {
        pprt_fail(handle, error.c_str());
        return;
      }
      programs[rank](handle);
      if (!gpu->synchronize(rank, timeout, error))
        pprt_fail(handle, error.c_str());
      gpu->unbind();
    });
    double seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - start)
                         .count();
    if (!ok)
      return fail("step " + std::to_string(step) + " failed: " +
                  world->error());
    std::vector<double> losses = world->losses();
    double mean = 0;
    for (double l : losses)
      mean += l;
    mean /= losses.size();
    if (step == 1)
      firstLoss = mean;
    lastLoss = mean;
    pprt::StepTiming timing = world->stepTiming();
    if (leader)
      llvm::outs() << "step " << step << ": loss "
                   << llvm::format("%.9g", mean) << ", "
                   << llvm::format("%.1f", seconds * 1e3) << " ms, bubble "
                   << llvm::format("%.3f", timing.bubbleRate)
                   << " (measured)\n";

    if (check && step == 1) {
      // The unpipelined model on the same micro-batches, seeded with 1/M;
      // each parameter's gradients summed from zero in the order its stage
      // accumulates them.
      std::map<unsigned, HostTensor> reference;
      std::map<unsigned, std::vector<HostTensor>> perMicrobatch;
      std::vector<double> referenceLosses;
      for (int mb = 0; mb < numMicrobatches; ++mb) {
        std::vector<HostTensor> args;
        for (unsigned a = 0; a < argSpecs.size(); ++a) {
          if (parameters.count(a)) {
            args.push_back(parameters[a]);
            continue;
          }
          // Data the stages never read (an argument the model ignores)
          // still needs a value.
          auto pos = llvm::find(stageData, a);
          if (pos == stageData.end())
            args.push_back(syntheticData(argSpecs[a], mb, a));
          else
            args.push_back(data[mb][pos - stageData.begin()]);
        }
        FailureOr<TensorSpec> seedSpec =
            specOf(lossFn.getResultTypes().front());
        HostTensor seedTensor(*seedSpec);
        seedTensor.set(0, 1.0 / numMicrobatches);
        args.push_back(seedTensor);
        std::vector<const HostTensor *> argPtrs;
        for (const HostTensor &t : args)
          argPtrs.push_back(&t);
        std::vector<HostTensor> results;
        if (llvm::Error e = hostJit->run(gradName, argPtrs, results))
          return fail("the reference failed: " + llvm::toString(std::move(e)));
        referenceLosses.push_back(results[0].get(0));
        for (auto [k, a] : llvm::enumerate(parameterArgs))
          perMicrobatch[a].push_back(std::move(results[1 + k]));
      }
      for (int st = 0; st < numStages; ++st)
        for (unsigned a : stageParams[st]) {
          const std::vector<HostTensor> &gs = perMicrobatch[a];
          HostTensor acc(gs.front().spec());
          for (int mb : accumulationOrder[st])
            addInto(acc, gs[mb]);
          reference.emplace(a, std::move(acc));
        }
      double worstLoss = 0;
      bool lossesEqual = true;
      for (int mb = 0; mb < numMicrobatches; ++mb) {
        double a = losses[mb], b = referenceLosses[mb];
        lossesEqual &= a == b;
        worstLoss = std::max(worstLoss, std::abs(a - b) /
                                            std::max(std::abs(b), 1e-30));
      }
      double worst = 0;
      bool bitwise = true;
      for (int s = 0; s < numStages; ++s) {
        for (auto [k, a] : llvm::enumerate(stageParams[s])) {
          const pprt::Buffer *g = world->gradient(s, k);
          if (!g)
            continue;
          const HostTensor &ref = reference[a];
          bitwise &= g->bytes.size() == ref.byteSize() &&
                     std::memcmp(g->bytes.data(), ref.data(),
                                 ref.byteSize()) == 0;
          double scale = 0;
          for (int64_t i = 0; i < ref.size(); ++i)
            scale = std::max(scale, std::abs(ref.get(i)));
          HostTensor got(ref.spec());
          std::memcpy(got.data(), g->bytes.data(),
                      std::min(g->bytes.size(), got.byteSize()));
          for (int64_t i = 0; i < ref.size(); ++i)
            worst = std::max(worst, std::abs(got.get(i) - ref.get(i)) /
                                        std::max(scale, 1e-30));
        }
      }
      worst = world->allReduceMax(worst);
      double notBitwise = world->allReduceMax(bitwise ? 0.0 : 1.0);
      if (leader) {
        llvm::outs() << "check (step 1, against the unpipelined model): loss "
                     << (lossesEqual ? "bitwise equal"
                                     : ("max relative error " +
                                        llvm::formatv("{0:e3}", worstLoss)
                                            .str()))
                     << "; " << parameterArgs.size()
                     << " parameter gradients: "
                     << (notBitwise == 0.0
                             ? std::string("bitwise equal")
                             : "max relative error " +
                                   llvm::formatv("{0:e3}", worst).str())
                     << "\n";
      }
      // NaN equals NaN bitwise: a check of values that are not finite
      // fails, naming the first one.
      std::string nonFinite;
      for (int mb = 0; mb < numMicrobatches && nonFinite.empty(); ++mb) {
        if (!std::isfinite(losses[mb]))
          nonFinite = "the loss of micro-batch " + std::to_string(mb) +
                      " is " + valueText(losses[mb]);
        else if (!std::isfinite(referenceLosses[mb]))
          nonFinite = "the unpipelined model's loss of micro-batch " +
                      std::to_string(mb) + " is " +
                      valueText(referenceLosses[mb]);
      }
      if (nonFinite.empty()) {
        std::string what;
        if (int64_t bad = firstBadParameter(false, what); bad >= 0)
          nonFinite = "the gradient of parameter argument " +
                      std::to_string(bad) + " is not finite (" + what + ")";
      }
      if (nonFinite.empty())
        for (unsigned a : parameterArgs)
          if (int64_t i = firstNonFinite(reference[a]); i >= 0) {
            nonFinite = "the unpipelined model's gradient of parameter "
                        "argument " + std::to_string(a) +
                        " is not finite (element " +
                        reference[a].indexStr(i) + " = " +
                        valueText(reference[a].get(i)) + ")";
            break;
          }
      if (!nonFinite.empty()) {
        if (leader)
          llvm::outs() << "check FAILED: " << nonFinite << "\n";
        return 1;
      }
      // On a GPU the loss is summed in another order (cuBLAS, split
      // reductions): a float32 sum of n terms may differ in its relative
      // error by about sqrt(n) ulps, so the loss gets the gradients' bound.
      double lossBound = onGPU ? 1e-4 : 1e-5;
      if (!(worst <= 1e-4) || !(worstLoss <= lossBound)) {
        if (leader)
          llvm::outs() << "check FAILED\n";
        return 1;
      }
      if (leader)
        llvm::outs() << "check PASSED\n";
    }

    // A step whose loss or gradients are not finite stops the run.
    {
      int badMicrobatch = -1;
      for (int mb = 0; mb < numMicrobatches && badMicrobatch < 0; ++mb)
        if (!std::isfinite(losses[mb]))
          badMicrobatch = mb;
      std::string what;
      int64_t bad = firstBadParameter(/*values=*/false, what);
      if (badMicrobatch >= 0 || bad >= 0) {
        std::string message = "step " + std::to_string(step) + ": ";
        if (badMicrobatch >= 0)
          message += "the loss of micro-batch " +
                     std::to_string(badMicrobatch) + " is " +
                     valueText(losses[badMicrobatch]);
        else
          message += "the loss is finite";
        if (bad >= 0)
          message += "; the first parameter whose gradient is not finite: "
                     "argument " + std::to_string(bad) + " (" + what + ")";
        else
          message += "; every parameter gradient is finite";
        return fail(message);
      }
    }
    double elapsed = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - trainingStart)
                         .count();
    if (progress.enabled && elapsed > 0 &&
        (step == numSteps || progress.seconds() - lastRateReport >= 1.0)) {
      lastRateReport = progress.seconds();
      double stepsPerSecond = step / elapsed;
      progress.phase(
          "step " + std::to_string(step) + "/" + std::to_string(numSteps) +
          ": " + printfString("%.3g", stepsPerSecond) +
          " steps/s, " +
          printfString("%.4g", stepsPerSecond * numMicrobatches *
                                   samplesPerMicrobatch) +
          " samples/s (" + std::to_string(numMicrobatches) + " x " +
          std::to_string(samplesPerMicrobatch) + " samples per step)");
    }

    if (step == numSteps) {
      std::vector<int64_t> peaks = world->stashPeaks();
      if (gpu)
        for (int r : localRanks) {
          pprt::cuda::PoolStats pool = gpu->poolStats(r);
          if (leader || localRanks.size() == 1)
            llvm::outs() << "rank " << r << ": device memory peak "
                         << pool.peak << " bytes of the pool's " << pool.size
                         << (pool.overflow
                                 ? " (+" + std::to_string(pool.overflow) +
                                       " bytes outside it while messages "
                                       "held pool memory)"
                                 : std::string())
                         << "\n";
        }
      if (leader) {
        for (int r = 0; r < numRanks; ++r)
          llvm::outs() << "rank " << r << ": busy "
                       << llvm::format("%.3f", timing.busy[r] * 1e3)
                       << " ms, stash peak " << peaks[r]
                       << " bytes (pp-simulate: "
                       << predicted.ranks[r].peakMemoryBytes << ")\n";
        // pp-simulate again with the stage times this step measured (mean
        // per stage and kind; a fused backward counts as B): what the
        // schedule predicts for the functions as they ran here.
        sched::PipelineModel measured = mlir::pp::getPipelineModel(pipeline);
        std::vector<std::array<double, 3>> sum(numStages, {0, 0, 0});
        std::vector<std::array<int, 3>> count(numStages, {0, 0, 0});
        for (const pprt::TraceEvent &e : world->trace()) {
          int kind = e.action == PPRT_FORWARD           ? 0
                     : e.action == PPRT_BACKWARD_WEIGHT ? 2
                     : (e.action == PPRT_BACKWARD ||
                        e.action == PPRT_BACKWARD_INPUT)
                         ? 1
                         : -1;
          if (kind < 0 || e.stage < 0 || e.stage >= numStages)
            continue;
          sum[e.stage][kind] += (e.end - e.start) * 1e6;
          ++count[e.stage][kind];
        }
        for (int st = 0; st < numStages; ++st) {
          auto mean = [&](int k) {
            return count[st][k] ? sum[st][k] / count[st][k] : 0.0;
          };
          measured.stages[st].forwardTime = mean(0);
          measured.stages[st].backwardInputTime = mean(1);
          measured.stages[st].backwardWeightTime = mean(2);
        }
        measured.latency = 0;
        sched::SimulationResult withMeasured = sched::simulate(measured, plan);
        llvm::outs() << "makespan " << llvm::format("%.3f",
                                                    timing.makespan * 1e3)
                     << " ms, measured bubble rate "
                     << llvm::format("%.3f", timing.bubbleRate)
                     << "; pp-simulate with the measured stage times: "
                     << llvm::format("%.3f", withMeasured.makespan * 1e-3)
                     << " ms, bubble rate "
                     << llvm::format("%.3f", withMeasured.bubbleRate)
                     << " (ratio measured / predicted makespan "
                     << llvm::format("%.2f", withMeasured.makespan > 0
                                                 ? timing.makespan * 1e6 /
                                                       withMeasured.makespan
                                                 : 0.0)
                     << ")\n";
      }
      if (!traceFile.empty() && leader) {
        std::error_code ec;
        llvm::raw_fd_ostream os(traceFile, ec);
        if (ec)
          return fail("cannot write " + traceFile + ": " + ec.message());
        os << world->chromeTraceJson();
        llvm::outs() << "trace: " << traceFile << "\n";
      }
    }
    world->sgdStep(learningRate);
    std::string what;
    if (int64_t bad = firstBadParameter(/*values=*/true, what); bad >= 0)
      return fail("step " + std::to_string(step) + ": the update (--lr=" +
                  valueText(learningRate) + ") made parameter argument " +
                  std::to_string(bad) + " not finite (" + what + ")");
  }
  if (leader && numSteps >= 2)
    llvm::outs() << "trained " << numSteps << " steps: the loss "
                 << (lastLoss < firstLoss ? "fell" : "did not fall")
                 << " from " << llvm::format("%.9g", firstLoss) << " to "
                 << llvm::format("%.9g", lastLoss) << "\n";
  return 0;
}
