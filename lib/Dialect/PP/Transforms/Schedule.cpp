//===- Schedule.cpp - pp-schedule ------------------------------------------===//
//
// Builds compute-only pp.schedule ops with the generators of the schedule
// library (lib/Schedule/Generators.cpp, where each schedule cites its paper).
//
//===----------------------------------------------------------------------===//

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"
#include "pp/Dialect/PP/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::pp {
#define GEN_PASS_DEF_PPSCHEDULEPASS
#include "pp/Dialect/PP/Transforms/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {
struct PPSchedulePass : mlir::pp::impl::PPSchedulePassBase<PPSchedulePass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void PPSchedulePass::runOnOperation() {
  ModuleOp module = getOperation();
  std::string known = llvm::join(sched::scheduleNames(), ", ");
  if (scheduleName.empty()) {
    mlir::emitError(module.getLoc(), "pp-schedule: option 'schedule' is required; known "
                     "schedules: ")
        << known;
    return signalPassFailure();
  }
  if (numMicrobatches < 1) {
    mlir::emitError(module.getLoc(), "pp-schedule: option 'num-microbatches' is required and "
                     "must be at least 1, got ")
        << numMicrobatches.getValue();
    return signalPassFailure();
  }

  SmallVector<PipelineOp> pipelines;
  for (auto pipeline : module.getOps<PipelineOp>())
    if (pipelineName.empty() || pipeline.getSymName() == pipelineName)
      pipelines.push_back(pipeline);
  if (!pipelineName.empty() && pipelines.empty()) {
    mlir::emitError(module.getLoc(), "pp-schedule: no pp.pipeline named @") << pipelineName;
    return signalPassFailure();
  }

  SymbolTable symbols(module);
  for (PipelineOp pipeline : pipelines) {
    sched::PipelineModel model = getPipelineModel(pipeline);
    llvm::Expected<sched::Schedule> schedule =
        sched::buildSchedule(scheduleName, model, numMicrobatches);
    if (!schedule) {
      mlir::emitError(pipeline.getLoc(), "pp-schedule: ")
          << llvm::toString(schedule.takeError());
      return signalPassFailure();
    }
    std::string name = (pipeline.getSymName() + "_" + scheduleName).str();
    std::replace(name.begin(), name.end(), '-', '_');
    if (Operation *old = symbols.lookup(name))
      symbols.erase(old);
    OpBuilder builder(pipeline);
    builder.setInsertionPointAfter(pipeline);
    ScheduleOp op =
        buildScheduleOp(builder, pipeline.getLoc(), name, pipeline, *schedule);
    symbols.insert(op);
  }
}
