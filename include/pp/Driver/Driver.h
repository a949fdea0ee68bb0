//===- Driver.h - compile a model into a pipeline and train it --*- C++ -*-===//
//
// The flow pp-run runs, as a library an embedding compiler stack can call:
//
//   1. prepare the model (pp-strip-instrumentation, pp-lift-parameters,
//      pp-append-loss, pp-prepare-model),
//   2. cut it into P*V stages (pp-partition, pp-place-stages),
//   3. give every stage F, B and W (pp-differentiate-stages),
//   4. schedule, communicate and verify (pp-plan),
//   5. lower every rank's program (convert-pp-to-runtime; with a reference,
//      pp-autodiff of the whole loss for checking),
//   6. JIT-compile the rank programs (pp/Execution/Jit.h; for a GPU through
//      pp-lower-stages-to-gpu) and train N steps of M micro-batches with SGD
//      on P ranks of the runtime (runtime/include/pprt/Runtime.h).
//
// Steps 1-5 are typed `build*Pipeline` functions (as CIRCT's firtool
// exposes its pipeline) and compileModel(); step 6 is createSession() and
// train(). pp-run is a command line over these; docs/Runtime.md describes
// the behaviour, the output and the checks.
//
// Units: seconds for times, bytes for memory, unless a name says otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef PP_DRIVER_DRIVER_H
#define PP_DRIVER_DRIVER_H

#include "pp/Driver/LearningRate.h"
#include "pp/Execution/HostTensor.h"
#include "pp/Execution/Optimizer.h"
#include "pp/Schedule/DataParallel.h"
#include "pp/Schedule/Schedule.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
class OpPassManager;
} // namespace mlir

namespace pprt {
class World;
namespace cuda {
class Device;
} // namespace cuda
} // namespace pprt

namespace mlir::pp::driver {

/// Where stage functions run.
enum class Device {
  CPU,          ///< the host (JIT-compiled LLVM)
  CUDA,         ///< an NVIDIA GPU through the CUDA plugin (docs/GPU.md)
  CUDAEmulated, ///< the GPU compilation run by the emulated plugin
};

/// "cpu", "cuda" or "cuda-emu".
const char *deviceName(Device device);

/// CompileOptions::loss: what pp-append-loss appends to the model.
enum class LossKind {
  None,         ///< the function returns its scalar loss already
  MSE,          ///< mean squared error against a target argument
  CrossEntropy, ///< softmax cross-entropy against class indices
};
/// "none", "mse" or "cross-entropy" (pp-run's --loss, pp-append-loss's kind).
llvm::StringRef lossKindName(LossKind kind);

/// CompileOptions::planCosts: what the partition balances.
enum class PlanCosts {
  Auto,     ///< measured where the stages run on this CPU, else flops
  Flops,    ///< pp-partition's FLOP estimates
  Measured, ///< every op's F, B and W timed by the JIT
};
/// "auto", "flops" or "measured" (pp-run's --plan-costs).
llvm::StringRef planCostsName(PlanCosts costs);

/// CompileOptions::precision: what the stages' contractions compute on.
enum class Precision {
  F32,  ///< f32 everywhere
  BF16, ///< bf16 inputs with f32 accumulation (pp-round-to-bf16)
};
/// "f32" or "bf16" (pp-run's --precision).
llvm::StringRef precisionName(Precision precision);

/// Progress lines on standard error: "<tool>: [1.2 s] <what>", seconds since
/// construction. Disabled, it prints nothing.
class Progress {
public:
  explicit Progress(bool enabled, std::string tool = "pp-run");
  void phase(const llvm::Twine &what);
  /// Seconds since construction.
  double seconds() const;
  bool enabled() const { return enabled_; }

private:
  bool enabled_;
  std::string tool;
  std::chrono::steady_clock::time_point start;
};

/// What to compile: the model, how to cut it and how to schedule it.
struct CompileOptions {
  /// The model function (required).
  std::string function;
  /// Arguments that are parameters; empty: those marked pp.parameter, or
  /// weight constants pp-lift-parameters lifts.
  std::vector<unsigned> parameters;
  /// Weight constants with at least this many elements become parameters.
  int64_t minElements = 1024;
  /// The loss pp-append-loss appends (LossKind::None: the function returns
  /// its scalar loss).
  LossKind loss = LossKind::None;
  /// Ranks P, stages per rank V (P*V stages), micro-batches per step M.
  int numRanks = 1;
  int stagesPerRank = 1;
  int numMicrobatches = 1;
  /// An explicit stage assignment: cut after these ops that do work of the
  /// prepared loss function (numbered from 0 in block order, as
  /// pp-partition's report counts them; pp-partition's `cuts`), strictly
  /// increasing, P*V - 1 of them. Empty: cut at the model's pp.split_point
  /// markers if it has any (they must make P*V stages), else balance
  /// estimated FLOPs.
  std::vector<int64_t> cuts;
  /// A schedule buildSchedule() knows (sched::scheduleNames()), or
  /// file:PATH, a schedule table (pp-schedule).
  std::string schedule;
  /// interleaved-1f1b: micro-batches per group (0: P).
  int64_t groupSize = 0;
  /// Activation memory per rank, bytes or a multiple of M_B ("4M_B");
  /// empty: no limit (pp-schedule's memory-limit).
  std::string memoryLimit;
  /// auto: what it minimizes, and the exact solver's time limit in seconds
  /// (pp-schedule's auto-objective, solver-time-limit).
  sched::AutoObjective autoObjective = sched::AutoObjective::StepMakespan;
  double solverTimeLimit = 1.0;
  /// How a split backward counts memory when planning, accounting
  /// (pprt_stash) and in the plan beside the measured peaks:
  /// ConvertAtBackward (what the generated code's stash buffers measure) or
  /// HoldDuringBackward (B holds M_W from its start and M_B to its end; an
  /// upper bound); pp-schedule's stash-accounting. Device memory pools are
  /// sized under HoldDuringBackward either way.
  sched::StashAccounting stashAccounting =
      sched::StashAccounting::ConvertAtBackward;
  /// Also create @<loss>_grad (pp-autodiff of the whole loss) as the
  /// unpipelined reference that train() checks against.
  bool reference = false;
  /// Activation recomputation of every stage (pp-differentiate-stages
  /// recompute=): "none", "full" or "selective"; or "auto", the cut,
  /// schedule (with the schedule auto) and per-stage choice with the
  /// fastest predicted step within memoryLimit (docs/Recompute.md). Empty
  /// (the default): "auto" when memoryLimit is in bytes, else "none"
  /// (withDefaults()).
  std::string recompute;
  /// Data-parallel replicas D of the pipeline (>= 1): with D > 1 the
  /// schedule gets a pp.allreduce after each stage's last W
  /// (pp-insert-allreduce) that the rank programs run (pprt_allreduce).
  int dataParallel = 1;
  /// With dataParallel > 1: merge a rank's consecutive stage all-reduces
  /// into collectives of at most this many bytes (pp-insert-allreduce's
  /// bucket-bytes, sched::bucketAllReduces); 0: one per stage.
  int64_t allReduceBucketBytes = 0;
  /// With dataParallel > 1: every all-reduce after its rank's last action
  /// instead of its stage's last W (pp-insert-allreduce's at-end): the
  /// step without the overlap, to measure its saving.
  bool allReduceAtEnd = false;
  /// F32 (the default) or BF16: every contraction of the stage functions
  /// and of the reference computes on bf16 inputs with f32 accumulation
  /// (pp-round-to-bf16); parameters, optimizer state, the other ops and the
  /// loss stay f32. With `reference`, an f32 copy of the reference is kept
  /// as @<loss>_grad_f32 (CompiledModel::f32ReferenceName).
  Precision precision = Precision::F32;
  /// What the partition balances: Auto (the default: Measured where the
  /// stage code runs on this CPU, see `measurable`, else Flops with the
  /// ops above 1/(4 P V) of the work split), Flops (pp-partition's FLOP
  /// estimates) or Measured (every op's F, B and W timed by the JIT on
  /// the real shapes, pp/Driver/StagePlanner.h; the stages' costs are then
  /// the measured sums and the schedule is planned with them). A cut fixed
  /// by `cuts` or pp.split_point markers is never measured.
  PlanCosts planCosts = PlanCosts::Auto;
  /// Whether the stage functions run on this machine's CPU, so that they
  /// can be timed (false for a GPU target: "auto" then plans with FLOP
  /// estimates, "measured" is refused by pp-run).
  bool measurable = true;
  /// Several processes (mpi): gives every process the measured plan of the
  /// process that holds rank 0, so that all cut the model alike. Called
  /// once on every process that plans with measured costs, with the
  /// serialized plan on that process (`planLeader`) and an empty string on
  /// the others; returns the leader's (pprt::World::bytesOfRankZero).
  /// Unset: this process is the only one and measures. Set, `auto` runs
  /// without the exact solver (solverTimeLimit is ignored): its time limit
  /// could let processes choose different schedules.
  std::function<std::string(const std::string &)> sharePlan;
  /// With `sharePlan`: whether this process measures and plans; the others
  /// take its plan and measure nothing.
  bool planLeader = true;
  /// measured: the cost cache file; empty: defaultCostCachePath(); "none":
  /// measure every time and keep nothing.
  std::string costCache;
  /// measured: timed runs of every F, B and W function (the median counts).
  unsigned measureRepetitions = 3;
  /// A stage taking less than this fraction of the busiest stage's time
  /// (FLOPs or measured) is near-empty: compileModel() warns and names the
  /// largest number of stages the model balances.
  double nearEmptyFraction = 0.1;
  /// Ops too large for one stage (pp-split-ops): "auto", with measured
  /// planning only, also plans the model with every op above 1/(4 P V) of
  /// the work's FLOPs split (so the cut can balance stages of about four
  /// units) and keeps the split when its busiest stage is smaller, or at
  /// most 10% slower (the run-to-run spread of the measurements) and
  /// better balanced; "none" never splits; a number in (0, 1] always
  /// splits above that share, under either plan costs. Never with --cuts
  /// or pp.split_point markers (their op numbers refer to the unsplit
  /// model).
  std::string splitOps = "auto";
};

/// Checks the options that need no model: counts in range, a known schedule,
/// V = 2 for the V-shaped schedules, a known loss. The message names the
/// option as pp-run spells it (--ranks, ...).
llvm::Error validate(const CompileOptions &options);

/// --memory-limit when it is a number of bytes (not a multiple of M_B,
/// which depends on the cut), else std::nullopt.
std::optional<int64_t> memoryLimitBytes(const CompileOptions &options);

/// `options` with its defaults that depend on other options resolved:
/// CompileOptions::recompute. compileModel() compiles with these.
CompileOptions withDefaults(const CompileOptions &options);

/// The loss function the pipeline trains: @<function>, or @<function>_loss
/// when a loss is appended.
std::string lossFunctionName(const CompileOptions &options);

/// Adds step 1: pp-strip-instrumentation, pp-lift-parameters, pp-append-loss
/// (unless loss is "none"), pp-prepare-model.
void buildPreparePipeline(OpPassManager &pm, const CompileOptions &options);
/// Adds step 2: pp-partition into P*V stages (at options.cuts when given)
/// and, for V > 1 or the V-shaped schedules, pp-place-stages (loop or v).
/// With `byMarkers`, the stage count is left to the pp.split_point markers
/// (compileModel then checks it is P*V).
void buildPartitionPipeline(OpPassManager &pm, const CompileOptions &options,
                            bool byMarkers = false);
/// Adds step 2's first half: pp-partition only (no placement), as
/// buildPartitionPipeline does it.
void buildCutPipeline(OpPassManager &pm, const CompileOptions &options,
                      bool byMarkers = false);
/// Adds steps 3-4: pp-differentiate-stages and pp-plan.
void buildStagesPipeline(OpPassManager &pm, const CompileOptions &options);
/// Adds step 5: convert-pp-to-runtime and, with options.reference,
/// pp-autodiff{cotangents=true} of the loss with respect to
/// `parameterArgs`.
void buildLowerPipeline(OpPassManager &pm, const CompileOptions &options,
                        ArrayRef<unsigned> parameterArgs);

/// A model compiled into a pipeline: the names compileModel() created in the
/// module and how the model's arguments reach the stages.
struct CompiledModel {
  /// The loss function (lossFunctionName()), its pp.pipeline and the
  /// pp.schedule that was lowered.
  std::string lossName, pipelineName, scheduleName;
  /// The schedule as asked for (CompileOptions::schedule).
  std::string scheduleKind;
  /// One function per rank (convert-pp-to-runtime): <schedule>_rank<r>.
  std::vector<std::string> rankFunctions;
  /// The most tensors one stage boundary carries in one direction (the
  /// rank functions' pprt.boundary_parts, at least 1): what train() gives
  /// the runtime's world (pprt::World::setMessageLayout), whose mpi
  /// transport builds its tags from it.
  int64_t boundaryParts = 1;
  /// The unpipelined reference (@<loss>_grad), when compiled; at bf16 also
  /// its f32 twin (@<loss>_grad_f32, and the functions it calls with the
  /// same suffix), whose loss --check reports the bf16 loss against.
  std::string referenceName;
  std::string f32ReferenceName;
  /// @<function>_init (pp-lift-parameters): the model's own values of the
  /// lifted weights, which are arguments firstLifted.. of the loss function.
  std::string initializerName;
  unsigned firstLifted = 0;
  /// Every argument of the loss function, and those that are parameters.
  std::vector<exec::TensorSpec> argumentSpecs;
  std::vector<unsigned> parameterArgs;
  /// Where an argument of the loss function comes from. Split ops
  /// (CompileOptions::splitOps) replace a weight that the split reads only
  /// in slices by one parameter per slice (pp-split-parameters), so each
  /// stage holds and updates only its piece: `argument` is the position in
  /// the loss function as prepared, before that split (synthetic values are
  /// seeded by it; --initial-parameters and @<function>_init refer to it),
  /// and for a piece `dim` and `offset` place its slice in that argument
  /// (dim -1: the whole argument).
  struct ArgumentOrigin {
    unsigned argument = 0;
    int64_t dim = -1;
    int64_t offset = 0;
  };
  /// One per argument of the loss function.
  std::vector<ArgumentOrigin> argumentOrigins;
  /// The parameters of the loss function as prepared (before the split):
  /// argument and type, in order. Equal to parameterArgs and their
  /// argumentSpecs when nothing was split.
  std::vector<std::pair<unsigned, exec::TensorSpec>> preparedParameters;
  /// For stage s: the loss function's arguments its parameters are, in
  /// order.
  std::vector<std::vector<unsigned>> stageParameters;
  /// A parameter that several stages use (tied weights, a weight applied
  /// twice): the loss function's argument and, per use, the stage and the
  /// position in that stage's parameters (stageParameters[stage][index]).
  /// The runtime keeps one copy per rank that uses it and sums the uses'
  /// gradients (pprt::World::shareParameter).
  struct SharedParameter {
    unsigned argument = 0;
    std::vector<std::pair<int, int>> uses;
  };
  std::vector<SharedParameter> sharedParameters;
  /// The loss function's arguments stage 0 reads as data, in order.
  std::vector<unsigned> stageData;
  /// Where pp-partition cut the loss function: the last op (that does work,
  /// numbered from 0) of every stage but the last, and who chose the cuts
  /// ("option cuts", "pp.split_point markers", "balanced by FLOPs").
  std::vector<int64_t> cuts;
  std::string cutBy;
  /// The pipeline and schedule as the schedule library sees them, and the
  /// schedule's all-reduces over the replicas (pp.allreduce, with their
  /// buckets) as placed in it.
  sched::PipelineModel pipeline;
  sched::Schedule schedule;
  std::vector<sched::AllReducePlacement> allReduces;
  /// The all-reduces were placed after their ranks' last actions
  /// (CompileOptions::allReduceAtEnd), not after their stages' last W.
  bool allReducesAtEnd = false;
  /// The costs that planned the cut: Measured (the stage costs in
  /// `pipeline` are measured microseconds) or Flops (FLOP estimates);
  /// CompileOptions::planCosts with Auto resolved.
  PlanCosts planCosts = PlanCosts::Flops;
  /// What the planning did, one line each, for the report (where the costs
  /// came from, each stage's units and predicted F, B, W), and warnings (a
  /// near-empty stage, with the largest sensible P*V).
  std::vector<std::string> planNotes, planWarnings;
};

/// Runs steps 1-5 on `module` (which must hold options.function) and
/// describes the result. Errors name what is wrong: a missing function, a
/// result that is no scalar loss without options.loss, arguments that are
/// not statically shaped tensors, a stage parameter that is not a model
/// argument, pp.split_point markers that make another number of stages than
/// P*V, or a pass that failed (its diagnostics go to the context's handler).
llvm::Expected<CompiledModel> compileModel(ModuleOp module,
                                           const CompileOptions &options,
                                           Progress &progress);

/// Registers what pp-run's context needs: every dialect a model may contain
/// and the JIT's and GPU lowering's translations and interfaces.
void registerDriverDialects(DialectRegistry &registry);

/// How to train.
struct TrainOptions {
  /// Training steps N (>= 0) and the learning rate (finite, >= 0): the
  /// peak of the schedule.
  int steps = 1;
  double learningRate = 0.01;
  /// The update rule and its hyperparameters (pp/Execution/Optimizer.h),
  /// compiled with the stage code; its state lives beside each parameter.
  exec::OptimizerOptions optimizer;
  /// The learning rate per step (pp/Driver/LearningRate.h): a constant
  /// rate (the default), or linear warm-up over `warmupSteps` then a
  /// linear or cosine decay to `minLearningRate` at the last step.
  LearningRateSchedule::Kind learningRateSchedule =
      LearningRateSchedule::Kind::Constant;
  int warmupSteps = 0;
  double minLearningRate = 0.0;
  /// The ring all-reduce model of the data-parallel report
  /// (sched::ringAllReduceTime): one link's bandwidth, bytes per second,
  /// and one message's latency, microseconds.
  double allReduceBandwidth = 1e10;
  double allReduceLatency = 5.0;
  /// Measure both before the first step instead (replicas in several
  /// processes: an all-gather among the replicas at two sizes, the ring
  /// model fitted to them).
  bool calibrateAllReduce = false;
  /// Global gradient-norm clipping (0: off): after each step the L2 norm
  /// of every parameter's gradient (pieces and shared copies counted once,
  /// summed in argument order on every process alike) is computed, and
  /// when above this the update uses lr * clip / (norm + 1e-6).
  double clipGradNorm = 0.0;
  /// A step whose loss or gradients are not finite is skipped (no update,
  /// a message naming the parameter) instead of stopping the run.
  bool skipNonFinite = false;
  /// Seed of the synthetic parameters and data.
  uint64_t seed = 0;
  /// Compare the first step with the unpipelined reference (needs
  /// CompileOptions::reference): the loss, every gradient and the update.
  bool check = false;
  /// With `check`: compare this many steps from the first (>= 1; more
  /// than 1 needs every rank in this process, inproc).
  int checkSteps = 1;
  /// NumPy files: data arguments of the loss function (M micro-batches
  /// stacked on a leading axis), and initial parameters, in argument order;
  /// an empty entry means a synthetic value.
  std::vector<std::string> inputFiles;
  std::vector<std::string> initialParameterFiles;
  /// NumPy files read step by step: one per data argument of the loss
  /// function in argument order (an empty entry: --inputs or synthetic),
  /// each holding N samples of the argument's shape on a leading axis
  /// (N >= M, the same N in every file). Step s (from 1) takes samples
  /// (s-1)*M .. s*M-1, wrapping at N (an epoch); with `shuffle`, each
  /// epoch in its own order, a permutation seeded by `seed` and the epoch,
  /// the same for every argument.
  std::vector<std::string> datasetFiles;
  bool shuffle = false;
  /// Write the last step's measured timeline (Chrome trace JSON) here.
  std::string traceFile;
  /// Checkpoints (pp/Driver/Checkpoint.h): save into this directory after
  /// every `saveEvery` steps (0: only after the last step) and after the
  /// last; in-process ranks only for now. Resume from the checkpoint in
  /// `resumeDirectory`: its parameters replace the initial ones, training
  /// goes on from the step after its own up to `steps` (the total count).
  std::string saveDirectory;
  int saveEvery = 0;
  std::string resumeDirectory;
};

/// Checks the training options that need no model or world: steps, the
/// learning-rate schedule, clipping, --check-steps, --save-every, --shuffle
/// without a dataset, --resume with --initial-parameters. The message
/// names the option as pp-run spells it. train() checks them again.
llvm::Error validate(const TrainOptions &options);

/// Where and how the ranks run.
struct SessionOptions {
  /// Pipeline ranks P and micro-batches M of each replica.
  int numRanks = 1;
  int numMicrobatches = 1;
  /// Data-parallel replicas D (>= 1) of the pipeline: the world has P*D
  /// ranks, rank r running pipeline rank r % P of replica r / P
  /// (pprt::WorldOptions::replicas); a step trains D*M micro-batches,
  /// replica d taking micro-batches d*M .. d*M+M-1.
  int dataParallel = 1;
  /// "inproc", "mpi" or "nccl" (with Device::CUDA).
  std::string transport = "inproc";
  /// Longest wait for a message, seconds.
  double timeoutSeconds = 60.0;
  Device device = Device::CPU;
  /// GPU architecture for Device::CUDA / CUDAEmulated.
  std::string chip = "sm_90";
  /// The CUDA plugin to load; empty: $PPRT_CUDA_PLUGIN, else the plugin
  /// beside libPPRuntime.so.
  std::string cudaPlugin;
  /// Device memory per rank beyond the schedule's memory plan, MiB.
  int64_t workspaceMiB = 256;
  /// Only compile: no device plugin is opened, the world is inproc.
  bool compileOnly = false;
  /// OpenBLAS threads of each GEMM of a CPU stage function
  /// (pprt_cpu_blas_threads); 0: Session::coresOfThisProcess() divided by
  /// the process's ranks, at least 1, so that ranks x threads <= cores.
  int blasThreads = 0;
  /// At most this many ranks of the machine compute (F, B, W) at once
  /// (pprt::WorldOptions::computeSlots); 0: the cores when the ranks on the
  /// CPU outnumber them (inproc: the world's ranks; mpi: the job's
  /// processes on the machine, unless the launcher pinned them), else no
  /// limit; -1: no limit.
  int computeSlots = 0;
  /// GEMMs of CPU stage functions on OpenBLAS (pp-gemm-to-runtime); false
  /// keeps them as generated loops (JitOptions::blas). The emulated GPU
  /// always uses loops.
  bool blas = true;
  /// Convolutions on im2col + OpenBLAS too (JitOptions::im2col).
  bool im2col = true;
  /// The JIT cache directory of the host code (JitOptions::cacheDir);
  /// empty: none.
  std::string jitCache;
};

/// Checks what one option set says of the other: measured plan costs need
/// the CPU (--device=cpu), and both agree on the ranks, micro-batches and
/// replicas. validate(CompileOptions) and validate(TrainOptions) check each
/// set alone; compileModel() and Session::create() do not call this (they
/// see one set each), a launcher does before either.
llvm::Error validate(const CompileOptions &compile,
                     const SessionOptions &session);

/// The runtime's world (and on a GPU the device plugin) for one run. Create
/// it before parsing the model: under MPI every process must reach
/// MPI_Init first.
class Session {
public:
  static llvm::Expected<std::unique_ptr<Session>>
  create(const SessionOptions &options);
  ~Session();

  const SessionOptions &options() const { return options_; }
  pprt::World &world() { return *world_; }
  /// The device plugin, or null on the CPU.
  pprt::cuda::Device *gpu() { return gpu_.get(); }
  /// Whether this process runs rank 0 (prints the report).
  bool leader() const;
  /// The cores this process may use, at least 1: its CPU affinity; when
  /// that is the whole machine, divided by the processes of an MPI job on
  /// it (the launcher's local size: OMPI_COMM_WORLD_LOCAL_SIZE,
  /// MPI_LOCALNRANKS).
  static unsigned coresOfThisProcess();

private:
  Session() = default;
  SessionOptions options_;
  std::unique_ptr<pprt::cuda::Device> gpu_;
  std::unique_ptr<pprt::World> world_;
};

/// The rank programs of `model` lowered for `device` and printed (LLVM
/// dialect; on a GPU with the kernels' PTX): pp-run --print-ir.
llvm::Error printRankPrograms(ModuleOp module, const CompiledModel &model,
                              Device device, StringRef chip,
                              llvm::raw_ostream &os);

/// What a training run found.
struct TrainSummary {
  /// Mean loss over the micro-batches of the first and the last step.
  double firstLoss = 0.0, lastLoss = 0.0;
  /// With TrainOptions::check: whether the first step matched the
  /// reference (the report says why not).
  bool checkPassed = true;
};

/// Step 6: JIT-compiles the rank programs (and the reference and
/// initializer) of `model`, sets the parameters, and trains on `session`'s
/// ranks, writing the report (per step: loss, time, measured bubble; the
/// check; at the end the per-rank figures next to pp-simulate's) to `out`
/// on the leader. Errors: files that do not fit the arguments, a step that
/// fails in the runtime, a loss or gradient or parameter that is not finite
/// (naming the step and the first parameter that went bad). A failed step
/// that left rank threads running (pprt::World::ranksLeftRunning: a stage
/// function that never returned) does not return: the error goes to stderr
/// and the process ends with std::_Exit(1), since those threads still run
/// code and data that returning would destroy (as an MPI failure ends the
/// job with MPI_Abort).
llvm::Expected<TrainSummary> train(ModuleOp module, const CompiledModel &model,
                                   Session &session,
                                   const TrainOptions &options,
                                   Progress &progress, llvm::raw_ostream &out);

} // namespace mlir::pp::driver

#endif // PP_DRIVER_DRIVER_H
