//===- Pipelines.cpp - named pp pass pipelines -----------------------------===//

#include "pp/Dialect/PP/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::pp;

namespace {
struct PlanOptions : public PassPipelineOptions<PlanOptions> {
  Option<std::string> schedule{*this, "schedule",
                               llvm::cl::desc("Schedule to build")};
  Option<int64_t> numMicrobatches{
      *this, "num-microbatches",
      llvm::cl::desc("Micro-batches per training step (M >= 1)"),
      llvm::cl::init(0)};
};
} // namespace

void mlir::pp::registerPPPipelines() {
  PassPipelineRegistration<PlanOptions>(
      "pp-plan",
      "Schedule every pipeline, insert send/recv and verify the result "
      "(pp-schedule, pp-insert-communication, pp-verify-schedule)",
      [](OpPassManager &pm, const PlanOptions &options) {
        PPSchedulePassOptions scheduleOptions;
        scheduleOptions.scheduleName = options.schedule;
        scheduleOptions.numMicrobatches = options.numMicrobatches;
        pm.addPass(createPPSchedulePass(scheduleOptions));
        pm.addPass(createPPInsertCommunicationPass());
        pm.addPass(createPPVerifySchedulePass());
      });
}
