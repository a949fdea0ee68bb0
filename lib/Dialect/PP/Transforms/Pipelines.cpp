//===- Pipelines.cpp - pass pipelines on pp ops ---------------------------===//

#include "pp/Dialect/PP/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::pp;

namespace {
struct PlanOptions : public PassPipelineOptions<PlanOptions> {
  Option<std::string> schedule{
      *this, "schedule",
      llvm::cl::desc("Schedule to build: gpipe, 1f1b, interleaved-1f1b, "
                     "looped-bfs, zb-h1, zb-h2, zb-v, dualpipe-v, "
                     "v-half, v-min, auto, or file:PATH")};
  Option<int64_t> numMicrobatches{
      *this, "num-microbatches",
      llvm::cl::desc("Micro-batches per training step (M >= 1); required"),
      llvm::cl::init(0)};
  Option<int64_t> groupSize{
      *this, "group-size",
      llvm::cl::desc("interleaved-1f1b: micro-batches per group (0: P)"),
      llvm::cl::init(0)};
  Option<std::string> memoryLimit{
      *this, "memory-limit",
      llvm::cl::desc("Activation memory per rank, bytes or kM_B (auto plans "
                     "within it; a named schedule above it is an error); "
                     "empty (default): no limit")};
  Option<std::string> autoObjective{
      *this, "auto-objective",
      llvm::cl::desc("auto: step-makespan (default) or max-rank-span"),
      llvm::cl::init("step-makespan")};
  Option<double> solverTimeLimit{
      *this, "solver-time-limit",
      llvm::cl::desc("auto: seconds for the exact solver (default 1; 0: off)"),
      llvm::cl::init(1.0)};
  Option<std::string> stashAccounting{
      *this, "stash-accounting",
      llvm::cl::desc("How a split backward counts memory: convert (default; "
                     "B turns M_B into M_W, what the generated code "
                     "measures) or hold (B holds M_W from its start and M_B "
                     "until its end)"),
      llvm::cl::init("convert")};
  Option<std::string> form{
      *this, "form",
      llvm::cl::desc("The schedule's form: ssa, compact or auto (default: "
                     "compact above 100000 actions)"),
      llvm::cl::init("auto")};
  Option<int64_t> replicas{
      *this, "replicas",
      llvm::cl::desc("Data-parallel replicas D (default 1): with D > 1 each "
                     "stage's gradient all-reduce after its last W "
                     "(pp-insert-allreduce), and the replicas proved "
                     "deadlock-free"),
      llvm::cl::init(1)};
  ListOption<int64_t> gradientBytes{
      *this, "gradient-bytes",
      llvm::cl::desc("With replicas: bytes of each stage's parameter "
                     "gradients, for abstract stages (one per stage, or one "
                     "for every stage; default: from the stages' "
                     "functions)")};
  Option<int64_t> bucketBytes{
      *this, "bucket-bytes",
      llvm::cl::desc("With replicas: merge a rank's all-reduces into "
                     "collectives of at most this many bytes (default 0: "
                     "one per stage)"),
      llvm::cl::init(0)};
  Option<bool> atEnd{
      *this, "at-end",
      llvm::cl::desc("With replicas: every all-reduce after its rank's last "
                     "action (no overlap; default false)"),
      llvm::cl::init(false)};
};
} // namespace

void mlir::pp::buildPlanPipeline(OpPassManager &pm,
                                 const PlanPipelineOptions &options) {
  PPSchedulePassOptions scheduleOptions;
  scheduleOptions.scheduleName = options.schedule;
  scheduleOptions.numMicrobatches = options.numMicrobatches;
  scheduleOptions.groupSize = options.groupSize;
  scheduleOptions.memoryLimitText = options.memoryLimit;
  scheduleOptions.autoObjective = options.autoObjective;
  scheduleOptions.solverTimeLimit = options.solverTimeLimit;
  scheduleOptions.stashAccounting = options.stashAccounting;
  scheduleOptions.form = options.form;
  // The messages of the schedules it builds are placed as
  // pp-insert-communication places them, in the same pass: the compute-only
  // schedule is never built. pp-insert-communication still runs for the
  // compute-only schedules the input had (without any, it changes nothing
  // and the IR is not verified again).
  scheduleOptions.communicate = true;
  pm.addPass(createPPSchedulePass(scheduleOptions));
  pm.addPass(createPPInsertCommunicationPass());
  // After the messages: pp-insert-communication drops all-reduces. With
  // one replica the pass still checks the all-reduce options given.
  if (options.replicas != 1 || !options.gradientBytes.empty() ||
      options.allReduceBucketBytes != 0 || options.allReduceAtEnd) {
    PPInsertAllReducePassOptions allReduce;
    allReduce.replicas = options.replicas;
    allReduce.gradientBytes.assign(options.gradientBytes.begin(),
                                   options.gradientBytes.end());
    allReduce.bucketBytes = options.allReduceBucketBytes;
    allReduce.atEnd = options.allReduceAtEnd;
    pm.addPass(createPPInsertAllReducePass(allReduce));
  }
  pm.addPass(createPPVerifySchedulePass());
}

void mlir::pp::registerPPPipelines() {
  PassPipelineRegistration<PlanOptions>(
      "pp-plan",
      "Schedule every pipeline, insert send/recv (and with replicas the "
      "gradient all-reduces) and verify the result "
      "(pp-schedule{communicate}, pp-insert-communication, "
      "pp-insert-allreduce, pp-verify-schedule)",
      [](OpPassManager &pm, const PlanOptions &options) {
        PlanPipelineOptions plan;
        plan.schedule = options.schedule;
        plan.numMicrobatches = options.numMicrobatches;
        plan.groupSize = options.groupSize;
        plan.memoryLimit = options.memoryLimit;
        plan.autoObjective = options.autoObjective;
        plan.solverTimeLimit = options.solverTimeLimit;
        plan.stashAccounting = options.stashAccounting;
        plan.form = options.form;
        plan.replicas = options.replicas;
        plan.gradientBytes.assign(options.gradientBytes.begin(),
                                  options.gradientBytes.end());
        plan.allReduceBucketBytes = options.bucketBytes;
        plan.allReduceAtEnd = options.atEnd;
        buildPlanPipeline(pm, plan);
      });
}
