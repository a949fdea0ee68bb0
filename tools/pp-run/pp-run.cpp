//===- pp-run.cpp - compile a model into a pipeline and train it ----------===//
//
// pp-run MODEL.mlir --function=F --ranks=P --num-microbatches=M
//        --schedule=NAME [--steps=N] [--check] ...
//
// A command line over the driver library (pp/Driver/Driver.h): prepares the
// model, cuts it into P*V stages, gives every stage F, B and W, schedules
// and verifies it, lowers every rank's program, JIT-compiles it and trains N
// steps of M micro-batches with SGD on P ranks of the runtime, printing the
// loss of every step, the measured timeline and, with --check, a comparison
// with the unpipelined model. See docs/Runtime.md.
//
//===----------------------------------------------------------------------===//

#include "pp/Driver/Driver.h"
#include "pp/Execution/Jit.h"
#include "pp/InitAllPasses.h"
#include "pp/Support/PassManagerOptions.h"
#include "pp/Support/Version.h"
#include "pprt/Runtime.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

#include <cstdlib>
#include <optional>

using namespace mlir;
using namespace mlir::pp;
namespace cl = llvm::cl;

static cl::OptionCategory modelCategory("Model");
static cl::OptionCategory planCategory("Planning (the options of pp-plan)");
static cl::OptionCategory runCategory("Training");
static cl::OptionCategory deviceCategory("Devices and transports");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<model.mlir>"),
                                      cl::Required, cl::cat(modelCategory));
static cl::opt<std::string>
    functionName("function", cl::desc("The model function (required)"),
                 cl::value_desc("name"), cl::cat(modelCategory));
static cl::list<unsigned> parameterList(
    "parameters", cl::CommaSeparated,
    cl::desc("Arguments that are parameters (default: those marked "
             "pp.parameter, or lifted weight constants)"),
    cl::value_desc("i,j,..."), cl::cat(modelCategory));
static cl::opt<int64_t> minElements(
    "min-elements",
    cl::desc("Weight constants with at least this many elements become "
             "parameters (pp-lift-parameters; default 1024)"),
    cl::init(1024), cl::value_desc("n"), cl::cat(modelCategory));
static cl::opt<driver::LossKind> lossKind(
    "loss",
    cl::desc("Append a loss, or none when the function already returns a "
             "scalar loss (default none)"),
    cl::init(driver::LossKind::None),
    cl::values(clEnumValN(driver::LossKind::None, "none",
                          "the function returns its scalar loss"),
               clEnumValN(driver::LossKind::MSE, "mse",
                          "mean squared error against a target"),
               clEnumValN(driver::LossKind::CrossEntropy, "cross-entropy",
                          "softmax cross-entropy against class indices")),
    cl::cat(modelCategory));

static cl::opt<int> dataParallel(
    "data-parallel",
    cl::desc("Data-parallel replicas D of the pipeline (default 1): P*D "
             "ranks, rank r = replica r / P at pipeline rank r % P; each "
             "step trains D*M micro-batches and sums every gradient over the "
             "replicas in replica order (docs/Runtime.md)"),
    cl::init(1), cl::value_desc("D"), cl::cat(runCategory));
static cl::opt<double> allReduceBandwidth(
    "allreduce-bandwidth",
    cl::desc("--data-parallel: bandwidth of one ring link for the predicted "
             "all-reduce, bytes per second (default 1e10)"),
    cl::init(1e10), cl::value_desc("B"), cl::cat(runCategory));
static cl::opt<double> allReduceLatency(
    "allreduce-latency",
    cl::desc("--data-parallel: latency of one ring message for the "
             "predicted all-reduce, microseconds (default 5)"),
    cl::init(5.0), cl::value_desc("us"), cl::cat(runCategory));
static cl::opt<int64_t> allReduceBucketBytes(
    "allreduce-bucket-bytes",
    cl::desc("--data-parallel: merge a rank's stage all-reduces, in the "
             "order their gradients become final, into collectives of at most "
             "this many bytes, each started after the W that completes it "
             "(default 0: one per stage)"),
    cl::init(0), cl::value_desc("bytes"), cl::cat(runCategory));
static cl::opt<bool> allReduceAtEnd(
    "allreduce-at-end",
    cl::desc("--data-parallel: start every all-reduce after its rank's last "
             "action instead of its stage's last W (no overlap: to measure "
             "what the overlap saves)"),
    cl::cat(runCategory));
static cl::opt<bool> calibrateAllReduce(
    "calibrate-allreduce",
    cl::desc("--data-parallel under MPI: measure the all-reduce's bandwidth "
             "and latency before the first step (all-gathers among the "
             "replicas) instead of --allreduce-bandwidth/-latency"),
    cl::cat(runCategory));
static cl::opt<int> numRanks("ranks", cl::desc("Number of ranks P (required)"),
                             cl::init(0), cl::value_desc("P"),
                             cl::cat(planCategory));
static cl::opt<int> stagesPerRank("stages-per-rank",
                                  cl::desc("Stages per rank V (default 1)"),
                                  cl::init(1), cl::value_desc("V"),
                                  cl::cat(planCategory));
static cl::list<int64_t> cutList(
    "cuts", cl::CommaSeparated,
    cl::desc("Choose the stages: cut the prepared loss function after these "
             "ops that do work (numbered from 0 in block order, as "
             "pp-partition's report counts them; P*V - 1 strictly increasing "
             "numbers). Default: at the model's pp.split_point markers, which "
             "must make P*V stages, else balanced by estimated FLOPs"),
    cl::value_desc("i,j,..."), cl::cat(planCategory));
static cl::opt<int>
    numMicrobatches("num-microbatches",
                    cl::desc("Micro-batches per training step M (required)"),
                    cl::init(0), cl::value_desc("M"), cl::cat(planCategory));
static cl::alias numMicrobatchesAlias("microbatches",
                                      cl::desc("Alias for --num-microbatches"),
                                      cl::aliasopt(numMicrobatches),
                                      cl::cat(planCategory));
static cl::opt<std::string> scheduleName(
    "schedule",
    cl::desc("gpipe, 1f1b, interleaved-1f1b, looped-bfs, zb-h1, zb-h2, zb-v, "
             "dualpipe-v, auto, or file:PATH (a schedule table; required)"),
    cl::value_desc("name"), cl::cat(planCategory));
static cl::opt<int64_t> groupSize(
    "group-size",
    cl::desc("interleaved-1f1b: micro-batches per group (default 0: P)"),
    cl::init(0), cl::value_desc("G"), cl::cat(planCategory));
static cl::opt<std::string> memoryLimit(
    "memory-limit",
    cl::desc("Activation memory per rank: bytes, or a multiple of M_B such "
             "as 4M_B (default: no limit); auto plans within it, a named "
             "schedule that does not fit is an error; in bytes, with "
             "measured plan costs, it also bounds each stage's parameters "
             "plus stashes in the cut"),
    cl::value_desc("bytes|kM_B"), cl::cat(planCategory));

static cl::opt<driver::PlanCosts> planCosts(
    "plan-costs", cl::desc("What the stages balance (default auto)"),
    cl::init(driver::PlanCosts::Auto),
    cl::values(
        clEnumValN(driver::PlanCosts::Auto, "auto",
                   "measured when the stages run on this CPU (the plan then "
                   "shared by rank 0's process under mpi), flops with the "
                   "largest ops split on a GPU"),
        clEnumValN(driver::PlanCosts::Flops, "flops",
                   "FLOP estimates: deterministic and free"),
        clEnumValN(driver::PlanCosts::Measured, "measured",
                   "F, B and W of every op timed by the JIT on the real "
                   "shapes, cached; the schedule is then planned with the "
                   "measured times")),
    cl::cat(planCategory));
static cl::opt<std::string> splitOps(
    "split-ops",
    cl::desc("Split ops too large for one stage into pieces along a parallel "
             "loop (pp-split-ops) so the cut can balance them: auto (default: "
             "with measured costs, plan with every op above 1/(4 P V) of the "
             "FLOPs split too and keep that when its busiest stage is "
             "smaller, or at most 10% slower and better balanced; with "
             "--plan-costs=auto on a GPU, split them), none, or "
             "a share of the FLOPs in (0, 1] (split above it: always with "
             "FLOP estimates, kept as auto decides with measured costs); "
             "never with --cuts or pp.split_point markers"),
    cl::init("auto"), cl::value_desc("auto|none|fraction"),
    cl::cat(planCategory));
static cl::opt<std::string> costCache(
    "cost-cache",
    cl::desc("Measured plan costs: the cache of measured costs, keyed by "
             "model hash and machine (default "
             "$XDG_CACHE_HOME/pp-mlir/plan-costs.txt, else "
             "~/.cache/pp-mlir/plan-costs.txt; none: measure every time)"),
    cl::value_desc("file|none"), cl::cat(planCategory));
static cl::opt<unsigned> measureRepetitions(
    "measure-repetitions",
    cl::desc("Measured plan costs: timed runs of each F, B and W function "
             "after a warm-up; the median counts (default 3)"),
    cl::init(3), cl::value_desc("n"), cl::cat(planCategory));

static cl::opt<sched::AutoObjective> autoObjective(
    "auto-objective",
    cl::desc("What --schedule=auto minimizes (default step-makespan)"),
    cl::init(sched::AutoObjective::StepMakespan),
    cl::values(clEnumValN(sched::AutoObjective::StepMakespan, "step-makespan",
                          "one synchronous step"),
               clEnumValN(sched::AutoObjective::MaxRankSpan, "max-rank-span",
                          "the largest rank span (overlapping steps)")),
    cl::cat(planCategory));
static cl::opt<double> solverTimeLimit(
    "solver-time-limit",
    cl::desc("auto: seconds the exact solver may spend (default 1; 0: off)"),
    cl::init(1.0), cl::value_desc("seconds"), cl::cat(planCategory));

static cl::opt<sched::StashAccounting> stashAccounting(
    "stash-accounting",
    cl::desc("How a split backward (ZB) counts memory in the plan, the "
             "memory limit and the runtime's stash account (default "
             "convert). Device memory pools are sized under hold"),
    cl::init(sched::StashAccounting::ConvertAtBackward),
    cl::values(clEnumValN(sched::StashAccounting::ConvertAtBackward, "convert",
                          "B turns F's stash M_B into its weight stash M_W "
                          "(what the generated code's stash buffers measure)"),
               clEnumValN(sched::StashAccounting::HoldDuringBackward, "hold",
                          "B holds M_W from its start and M_B until its end "
                          "(an upper bound)")),
    cl::cat(planCategory));

static cl::opt<std::string> recompute(
    "recompute",
    cl::desc("Activation recomputation: none, full (F stashes only the "
             "stage's inputs; B recomputes the forward), selective (GEMM and "
             "convolution outputs stay stashed, the cheap ops are "
             "recomputed), selective:N (also the contractions of at most N "
             "FLOPs per output element), or auto (the cut, per-stage choice "
             "and, with "
             "--schedule=auto, schedule with the fastest predicted step "
             "within --memory-limit). Default: auto when --memory-limit is "
             "in bytes, else none"),
    cl::init(""), cl::value_desc("none|full|selective|selective:N|auto"),
    cl::cat(planCategory));
static cl::opt<driver::Precision> precision(
    "precision", cl::desc("Stage compute (default f32)"),
    cl::init(driver::Precision::F32),
    cl::values(clEnumValN(driver::Precision::F32, "f32", "f32 everywhere"),
               clEnumValN(driver::Precision::BF16, "bf16",
                          "every contraction on bf16 inputs with f32 "
                          "accumulation (pp-round-to-bf16); f32 master "
                          "weights, optimizer state and loss")),
    cl::cat(planCategory));
static cl::opt<int> numSteps("steps", cl::desc("Training steps (default 1)"),
                             cl::init(1), cl::value_desc("N"),
                             cl::cat(runCategory));
static cl::opt<double>
    learningRate("lr",
                 cl::desc("Learning rate, the schedule's peak (default 0.01)"),
                 cl::init(0.01), cl::value_desc("x"), cl::cat(runCategory));
static cl::opt<std::string> optimizerName(
    "optimizer",
    cl::desc("The update, generated code compiled with the stages "
             "(docs/Training.md): sgd (default), momentum (torch.optim.SGD "
             "with --momentum) or adamw (Loshchilov & Hutter, with --beta1, "
             "--beta2, --eps)"),
    cl::init("sgd"), cl::value_desc("sgd|momentum|adamw"),
    cl::cat(runCategory));
static cl::opt<double>
    momentum("momentum",
             cl::desc("momentum: the buffer's factor, in [0, 1) (default 0.9)"),
             cl::init(0.9), cl::value_desc("x"), cl::cat(runCategory));
static cl::opt<double>
    beta1("beta1",
          cl::desc("adamw: decay of the first moment, in [0, 1) (default 0.9)"),
          cl::init(0.9), cl::value_desc("x"), cl::cat(runCategory));
static cl::opt<double> beta2(
    "beta2",
    cl::desc("adamw: decay of the second moment, in [0, 1) (default 0.999)"),
    cl::init(0.999), cl::value_desc("x"), cl::cat(runCategory));
static cl::opt<double>
    eps("eps", cl::desc("adamw: added to the denominator, > 0 (default 1e-8)"),
        cl::init(1e-8), cl::value_desc("x"), cl::cat(runCategory));
static cl::opt<double> weightDecay(
    "weight-decay",
    cl::desc("Decoupled weight decay for every optimizer: p *= 1 - lr * x "
             "before the step (default 0)"),
    cl::init(0.0), cl::value_desc("x"), cl::cat(runCategory));
static cl::opt<double> clipGradNorm(
    "clip-grad-norm",
    cl::desc("Clip the global L2 norm of the gradients to this (every "
             "parameter counted once, summed in one fixed order on every "
             "rank): the gradients are scaled by min(1, X / (norm + 1e-6)) "
             "before the update (default 0: off)"),
    cl::init(0.0), cl::value_desc("X"), cl::cat(runCategory));
static cl::opt<bool> skipNonFinite(
    "skip-nonfinite",
    cl::desc("Skip a step whose loss or gradients are not finite (no "
             "update, a message naming the parameter) instead of stopping"),
    cl::cat(runCategory));
static cl::opt<std::string> lrSchedule(
    "lr-schedule",
    cl::desc("The learning rate per step: constant (default), linear or "
             "cosine (after --warmup-steps of linear warm-up, a decay from "
             "--lr to --min-lr at the last step)"),
    cl::init("constant"), cl::value_desc("constant|linear|cosine"),
    cl::cat(runCategory));
static cl::opt<int> warmupSteps(
    "warmup-steps",
    cl::desc("Steps of linear warm-up to --lr, step s taking lr * s / W "
             "(default 0)"),
    cl::init(0), cl::value_desc("W"), cl::cat(runCategory));
static cl::opt<double> minLearningRate(
    "min-lr",
    cl::desc("linear, cosine: the learning rate of the last step (default "
             "0)"),
    cl::init(0.0), cl::value_desc("x"), cl::cat(runCategory));
static cl::opt<bool>
    check("check",
          cl::desc("Compare the first step's loss and every parameter "
                   "gradient with the unpipelined model"),
          cl::cat(runCategory));
static cl::opt<int> checkSteps(
    "check-steps",
    cl::desc("With --check: compare this many steps from the first, each "
             "one's loss, gradients and update (default 1)"),
    cl::init(1), cl::value_desc("N"), cl::cat(runCategory));
static cl::opt<uint64_t> seed("seed",
                              cl::desc("Seed of the synthetic parameters and "
                                       "data (default 0)"),
                              cl::init(0), cl::value_desc("n"),
                              cl::cat(runCategory));
static cl::list<std::string> inputFiles(
    "inputs", cl::CommaSeparated,
    cl::desc("NumPy .npy files, one per data argument of the loss function "
             "in argument order, each holding the M micro-batches stacked "
             "on a leading axis; an empty entry means synthetic data"),
    cl::value_desc("a.npy,b.npy,..."), cl::cat(runCategory));
static cl::list<std::string> datasetFiles(
    "dataset", cl::CommaSeparated,
    cl::desc("NumPy .npy files read step by step, one per data argument of "
             "the loss function in argument order, each holding N samples "
             "(N >= M) on a leading axis: step s reads samples (s-1)*M .. "
             "s*M-1, wrapping at N (with --data-parallel=D, M is D times "
             "--microbatches); an empty entry: --inputs or synthetic"),
    cl::value_desc("a.npy,b.npy,..."), cl::cat(runCategory));
static cl::opt<bool> shuffle(
    "shuffle",
    cl::desc("--dataset: every epoch in its own order (seeded by --seed and "
             "the epoch)"),
    cl::cat(runCategory));
static cl::list<std::string> initialParameterFiles(
    "initial-parameters", cl::CommaSeparated,
    cl::desc("NumPy .npy files, one per parameter argument of the loss "
             "function in argument order, holding its initial value; an "
             "empty entry means a synthetic value"),
    cl::value_desc("p0.npy,p1.npy,..."), cl::cat(runCategory));
static cl::opt<std::string>
    traceFile("trace",
              cl::desc("Write the last step's measured timeline here "
                       "(Chrome trace JSON)"),
              cl::value_desc("file"), cl::cat(runCategory));
static cl::opt<std::string> saveDirectory(
    "save",
    cl::desc("Save a checkpoint into this directory after the last step "
             "(and every --save-every steps): manifest.json and one .npy "
             "per parameter and optimizer state tensor, named by the "
             "model's arguments (docs/Training.md, \"Checkpoints\")"),
    cl::value_desc("dir"), cl::cat(runCategory));
static cl::opt<int> saveEvery(
    "save-every",
    cl::desc("With --save: also after every N steps (default 0: only after "
             "the last)"),
    cl::init(0), cl::value_desc("N"), cl::cat(runCategory));
static cl::opt<std::string> resumeDirectory(
    "resume",
    cl::desc("Start from the checkpoint in this directory: its parameters, "
             "then the steps after its own up to --steps (any P, V or "
             "schedule)"),
    cl::value_desc("dir"), cl::cat(runCategory));
static cl::opt<bool> quiet("quiet",
                           cl::desc("No progress lines on standard error"),
                           cl::cat(runCategory));
static cl::opt<bool>
    printIR("print-ir",
            cl::desc("Print the compiled module (tensors; with "
                     "--device=cuda the rank programs "
                     "lowered for the GPU) and stop"),
            cl::cat(runCategory));

static cl::opt<std::string>
    transport("transport",
              cl::desc("inproc (threads, default), mpi, or nccl (with "
                       "--device=cuda: one process per GPU)"),
              cl::init("inproc"), cl::value_desc("name"),
              cl::cat(deviceCategory));
static cl::opt<double>
    timeout("timeout",
            cl::desc("Seconds a rank waits for a message before the run "
                     "fails (default 60)"),
            cl::init(60.0), cl::value_desc("seconds"), cl::cat(deviceCategory));
static cl::opt<std::string>
    deviceKind("device",
               cl::desc("Where stages run: cpu (default), cuda (compiled by "
                        "pp-lower-stages-to-gpu, docs/GPU.md), or cuda-emu "
                        "(the same compilation run by an emulated CUDA "
                        "plugin: the GPU path without a GPU)"),
               cl::init("cpu"), cl::value_desc("kind"),
               cl::cat(deviceCategory));
static cl::opt<std::string> gpuChip(
    "chip", cl::desc("GPU architecture for --device=cuda (default sm_90)"),
    cl::init("sm_90"), cl::value_desc("sm_XX"), cl::cat(deviceCategory));
static cl::opt<std::string>
    cudaPlugin("cuda-plugin",
               cl::desc("The CUDA plugin to load for --device=cuda (default: "
                        "$PPRT_CUDA_PLUGIN, else libPPRuntimeCUDA.so beside "
                        "libPPRuntime.so)"),
               cl::value_desc("path"), cl::cat(deviceCategory));
static cl::opt<int> blasThreads(
    "blas-threads",
    cl::desc("OpenBLAS threads of each GEMM of a CPU stage function (default "
             "0: the cores divided by this process's ranks, at least 1)"),
    cl::init(0), cl::value_desc("n"), cl::cat(deviceCategory));
static cl::opt<int> computeSlots(
    "compute-slots",
    cl::desc("At most this many ranks of the machine compute (F, B, W) at "
             "once, in-process or under mpi (default 0: the cores, when ranks "
             "on the CPU outnumber them, so an action's measured time is its "
             "work, not its share of a core; -1: no limit)"),
    cl::init(0), cl::value_desc("n"), cl::cat(deviceCategory));
static cl::opt<bool>
    noBlas("no-blas",
           cl::desc("Keep the GEMMs of CPU stage functions as generated loops "
                    "instead of OpenBLAS calls (default off)"),
           cl::init(false), cl::cat(deviceCategory));
static cl::opt<bool> noIm2col(
    "no-im2col",
    cl::desc("Keep the convolutions (forward and weight gradient) of CPU "
             "stage functions as generated loops instead of im2col and "
             "OpenBLAS GEMMs (default off)"),
    cl::init(false), cl::cat(deviceCategory));
static cl::opt<std::string> jitCache(
    "jit-cache",
    cl::desc("Compiled rank programs are kept in this directory and reused "
             "by a later run of the same model with the same options on the "
             "same CPU and compiler (default: $PP_JIT_CACHE, else "
             "$XDG_CACHE_HOME/pp-mlir/jit, else ~/.cache/pp-mlir/jit; none: "
             "compile every time; host code only)"),
    cl::value_desc("dir|none"), cl::cat(deviceCategory));
static cl::opt<int64_t> workspaceMiB(
    "gpu-workspace-mib",
    cl::desc("Device memory per rank beyond the schedule's memory plan, for "
             "the intermediate buffers of stage functions (MiB, default "
             "256)"),
    cl::init(256), cl::value_desc("MiB"), cl::cat(deviceCategory));

/// Writes "pp-run: error: MESSAGE" (or warning) to stderr in one write:
/// under mpirun every process may report the same error at once, and lines
/// written piece by piece interleave.
static void report(bool error, const llvm::Twine &message) {
  std::string line;
  llvm::raw_string_ostream os(line);
  (error ? llvm::WithColor::error(os, "pp-run")
         : llvm::WithColor::warning(os, "pp-run"))
      << message << "\n";
  llvm::errs() << line;
}

static int fail(const llvm::Twine &message) {
  report(/*error=*/true, message);
  return 1;
}

static int fail(llvm::Error error) {
  return fail(llvm::toString(std::move(error)));
}

/// Checks how the run was launched before anything is compiled: warns
/// about data-parallel options that do nothing with one replica, and
/// refuses an in-process run that mpirun started in several processes
/// (OMPI_COMM_WORLD_SIZE or PMI_SIZE above 1: each would train alone and
/// write the same files). False after an error.
static bool checkLaunch() {
  if (dataParallel == 1)
    for (const cl::Option *option :
         {static_cast<const cl::Option *>(&allReduceAtEnd),
          static_cast<const cl::Option *>(&allReduceBucketBytes),
          static_cast<const cl::Option *>(&calibrateAllReduce)})
      if (option->getNumOccurrences())
        report(/*error=*/false, "--" + option->ArgStr +
                                    " has no effect without --data-parallel=D "
                                    "with D > 1");
  const char *size = std::getenv("OMPI_COMM_WORLD_SIZE");
  if (!size)
    size = std::getenv("PMI_SIZE");
  if (size && std::atoi(size) > 1 && transport == "inproc") {
    report(/*error=*/true,
           llvm::Twine("mpirun started ") + size +
               " processes, but --transport is inproc: each would train "
               "alone; add --transport=mpi (or nccl with --device=cuda)");
    return false;
  }
  return true;
}

/// Prints errors and warnings of the context; drops remarks (the passes'
/// reports, such as what pp-strip-instrumentation removed).
struct DiagnosticFilter : SourceMgrDiagnosticHandler {
  DiagnosticFilter(MLIRContext &ctx, llvm::SourceMgr &mgr)
      : SourceMgrDiagnosticHandler(mgr, &ctx) {
    ctx.getDiagEngine().registerHandler([](Diagnostic &diag) {
      return success(diag.getSeverity() == DiagnosticSeverity::Remark);
    });
  }
};

static llvm::Expected<driver::Device> parseDevice() {
  if (deviceKind == "cpu")
    return driver::Device::CPU;
  if (deviceKind == "cuda")
    return driver::Device::CUDA;
  if (deviceKind == "cuda-emu")
    return driver::Device::CUDAEmulated;
  return llvm::createStringError("--device must be cpu, cuda or cuda-emu, "
                                 "not '" +
                                 deviceKind + "'");
}

/// The training options from the command line, checked (the learning-rate
/// schedule, clipping, checkpoints, data; driver::validate).
static llvm::Expected<driver::TrainOptions> makeTrainOptions() {
  auto error = [](const llvm::Twine &message) -> llvm::Error {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  driver::TrainOptions train;
  train.steps = numSteps;
  train.learningRate = learningRate;
  train.seed = seed;
  train.check = check;
  train.checkSteps = checkSteps;
  train.inputFiles.assign(inputFiles.begin(), inputFiles.end());
  train.datasetFiles.assign(datasetFiles.begin(), datasetFiles.end());
  train.clipGradNorm = clipGradNorm;
  train.skipNonFinite = skipNonFinite;
  train.shuffle = shuffle;
  train.initialParameterFiles.assign(initialParameterFiles.begin(),
                                     initialParameterFiles.end());
  train.traceFile = traceFile;
  train.saveDirectory = saveDirectory;
  train.saveEvery = saveEvery;
  train.resumeDirectory = resumeDirectory;
  std::optional<exec::OptimizerOptions::Kind> optimizer =
      exec::parseOptimizer(optimizerName);
  if (!optimizer)
    return error("--optimizer must be sgd, momentum or adamw, not '" +
                 optimizerName + "'");
  train.optimizer.kind = *optimizer;
  train.allReduceBandwidth = allReduceBandwidth;
  train.allReduceLatency = allReduceLatency;
  train.calibrateAllReduce = calibrateAllReduce;
  train.optimizer.momentum = momentum;
  train.optimizer.beta1 = beta1;
  train.optimizer.beta2 = beta2;
  train.optimizer.eps = eps;
  train.optimizer.weightDecay = weightDecay;
  std::optional<driver::LearningRateSchedule::Kind> kind =
      driver::parseLearningRateScheduleKind(lrSchedule);
  if (!kind)
    return error("--lr-schedule must be constant, linear or cosine, not '" +
                 lrSchedule + "'");
  train.learningRateSchedule = *kind;
  train.warmupSteps = warmupSteps;
  train.minLearningRate = minLearningRate;
  if (llvm::Error e = driver::validate(train))
    return std::move(e);
  return train;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // The rank programs call the runtime (libPPRuntime.so, loaded with this
  // program): make the process's symbols visible to the JIT.
  llvm::sys::DynamicLibrary::LoadLibraryPermanently(nullptr);
  setVersionPrinter("pp-run");
  // MLIR's pass manager options (--mlir-timing, --mlir-print-ir-after-all,
  // ...) for every pass pipeline the driver and the JIT run; --mlir-timing
  // is listed with the run options, the others are accepted but not listed.
  mlir::registerPassManagerCLOptions();
  mlir::registerDefaultTimingManagerCLOptions();
  if (cl::Option *timing = cl::getRegisteredOptions().lookup("mlir-timing"))
    timing->addCategory(runCategory);
  cl::HideUnrelatedOptions(
      {&modelCategory, &planCategory, &runCategory, &deviceCategory});
  cl::ParseCommandLineOptions(
      argc, argv,
      "pp-run: compile a model into a pipeline and train it on P ranks\n\n"
      "  pp-run MODEL.mlir --function=F --ranks=P --num-microbatches=M "
      "--schedule=NAME [--steps=N] [--check]\n\nSee docs/Runtime.md.\n");

  if (!checkLaunch())
    return 1;
  driver::CompileOptions compile;
  compile.function = functionName;
  compile.parameters.assign(parameterList.begin(), parameterList.end());
  compile.minElements = minElements;
  compile.loss = lossKind;
  compile.numRanks = numRanks;
  compile.stagesPerRank = stagesPerRank;
  compile.numMicrobatches = numMicrobatches;
  compile.cuts.assign(cutList.begin(), cutList.end());
  compile.schedule = scheduleName;
  compile.groupSize = groupSize;
  compile.memoryLimit = memoryLimit;
  compile.autoObjective = autoObjective;
  compile.solverTimeLimit = solverTimeLimit;
  compile.stashAccounting = stashAccounting;
  compile.reference = check;
  compile.dataParallel = dataParallel;
  compile.allReduceBucketBytes = allReduceBucketBytes;
  compile.allReduceAtEnd = allReduceAtEnd;
  compile.recompute = recompute;
  compile.precision = precision;
  compile.planCosts = planCosts;
  compile.splitOps = splitOps;
  compile.costCache = costCache;
  compile.measureRepetitions = measureRepetitions;
  if (numMicrobatches.getNumOccurrences() == 0)
    return fail("--num-microbatches is required (micro-batches per step M)");
  if (llvm::Error e = driver::validate(compile))
    return fail(std::move(e));
  llvm::Expected<driver::TrainOptions> trainOptions = makeTrainOptions();
  if (!trainOptions)
    return fail(trainOptions.takeError());
  driver::TrainOptions &train = *trainOptions;
  llvm::Expected<driver::Device> device = parseDevice();
  if (!device)
    return fail(device.takeError());
  compile.measurable = *device == driver::Device::CPU;
  driver::SessionOptions sessionOptions;
  sessionOptions.numRanks = numRanks;
  sessionOptions.numMicrobatches = numMicrobatches;
  sessionOptions.dataParallel = dataParallel;
  sessionOptions.transport = transport;
  sessionOptions.timeoutSeconds = timeout;
  sessionOptions.device = *device;
  sessionOptions.chip = gpuChip;
  sessionOptions.cudaPlugin = cudaPlugin;
  sessionOptions.workspaceMiB = workspaceMiB;
  sessionOptions.blasThreads = blasThreads;
  sessionOptions.computeSlots = computeSlots;
  sessionOptions.blas = !noBlas;
  sessionOptions.im2col = !noIm2col;
  sessionOptions.jitCache = jitCache.getNumOccurrences() == 0
                                ? exec::defaultJitCacheDir()
                            : jitCache == "none" ? std::string()
                                                 : std::string(jitCache);
  sessionOptions.compileOnly = printIR;
  if (llvm::Error e = driver::validate(compile, sessionOptions))
    return fail(std::move(e));

  // The world first: under MPI every process must reach MPI_Init.
  llvm::Expected<std::unique_ptr<driver::Session>> session =
      driver::Session::create(sessionOptions);
  if (!session)
    return fail(session.takeError());

  DialectRegistry registry;
  driver::registerDriverDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  registerAllPPPasses();
  llvm::SourceMgr sourceMgr;
  DiagnosticFilter diagnostics(context, sourceMgr);
  // MLIR's pass manager options (--mlir-*): once, not per pipeline.
  if (failed(checkPassManagerOptions(&context)))
    return 1;
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(inputFile, sourceMgr, &context);
  if (!module)
    return 1;

  // With ranks in several processes (mpi) rank 0's process measures and
  // plans; every process cuts the model as it did. The others wait for it
  // up to an hour: measuring a large model takes minutes.
  if ((*session)->world().localRanks().size() <
      static_cast<size_t>(numRanks) * dataParallel) {
    compile.planLeader = (*session)->leader();
    compile.sharePlan = [&](const std::string &mine) {
      std::vector<char> bytes = (*session)->world().bytesOfRankZero(
          {mine.begin(), mine.end()}, 3600.0,
          "rank 0's process to plan the pipeline");
      return std::string(bytes.begin(), bytes.end());
    };
  }
  driver::Progress progress(!quiet && (*session)->leader());
  llvm::Expected<driver::CompiledModel> model =
      driver::compileModel(*module, compile, progress);
  if (!model)
    return fail(model.takeError());
  if ((*session)->leader()) {
    for (const std::string &line : model->planNotes)
      llvm::outs() << line << "\n";
    llvm::outs().flush();
    for (const std::string &line : model->planWarnings)
      report(/*error=*/false, line);
  }
  if (printIR) {
    if (llvm::Error e = driver::printRankPrograms(*module, *model, *device,
                                                  gpuChip, llvm::outs()))
      return fail(std::move(e));
    return 0;
  }
  llvm::Expected<driver::TrainSummary> summary =
      driver::train(*module, *model, **session, train, progress, llvm::outs());
  if (!summary)
    return fail(summary.takeError());
  return summary->checkPassed ? 0 : 1;
}
