//===- VerifySchedule.cpp - pp-verify-schedule -----------------------------===//

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"
#include "pp/Dialect/PP/Transforms/Passes.h"

#include "mlir/IR/Verifier.h"

namespace mlir::pp {
#define GEN_PASS_DEF_PPVERIFYSCHEDULEPASS
#include "pp/Dialect/PP/Transforms/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {
struct PPVerifySchedulePass
    : mlir::pp::impl::PPVerifySchedulePassBase<PPVerifySchedulePass> {
  void runOnOperation() override;
};
} // namespace

void PPVerifySchedulePass::runOnOperation() {
  ModuleOp module = getOperation();
  // The structural checks live in the op verifier; run it in case this pass
  // is used without the pass manager's verifier.
  if (failed(verify(module)))
    return signalPassFailure();
  bool failedAny = false;
  for (ScheduleOp op : module.getOps<ScheduleOp>()) {
    sched::PipelineModel model = getPipelineModel(op.getPipelineOp());
    ScheduleModel schedule = getScheduleModel(op);
    sched::DeadlockReport report = sched::findDeadlock(model, schedule.schedule);
    if (report.completed)
      continue;
    failedAny = true;
    InFlightDiagnostic diag = mlir::emitError(op.getLoc(), "schedule @")
                              << op.getSymName() << " deadlocks: "
                              << report.blocked.size()
                              << " ranks wait forever";
    for (const sched::Problem &blocked : report.blocked) {
      Location loc = blocked.rank >= 0 && blocked.index >= 0
                         ? schedule.ops[blocked.rank][blocked.index]->getLoc()
                         : op.getLoc();
      diag.attachNote(loc) << blocked.message;
    }
  }
  if (failedAny)
    signalPassFailure();
  markAllAnalysesPreserved();
}
