//===- InsertCommunication.cpp - pp-insert-communication ------------------===//

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"
#include "pp/Dialect/PP/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::pp {
#define GEN_PASS_DEF_PPINSERTCOMMUNICATIONPASS
#include "pp/Dialect/PP/Transforms/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {
struct PPInsertCommunicationPass
    : mlir::pp::impl::PPInsertCommunicationPassBase<PPInsertCommunicationPass> {
  void runOnOperation() override;
};
} // namespace

static bool communicates(ScheduleOp op) {
  for (Region &region : op.getRanks())
    for (Operation &action : region.front())
      if (isa<SendOp, RecvOp>(action))
        return true;
  return false;
}

void PPInsertCommunicationPass::runOnOperation() {
  ModuleOp module = getOperation();
  for (ScheduleOp op :
       llvm::make_early_inc_range(module.getOps<ScheduleOp>())) {
    if (communicates(op))
      continue;
    PipelineOp pipeline = op.getPipelineOp();
    // The verifier ran before this pass, so the pipeline exists and the
    // schedule passes the library's structural checks.
    sched::PipelineModel model = getPipelineModel(pipeline);
    ScheduleModel compute = getScheduleModel(op);
    // A compute-only schedule whose ranks wait on each other in a cycle has
    // no deadlock-free placement of messages.
    sched::DeadlockReport deadlock =
        sched::findDeadlock(model, compute.schedule);
    if (!deadlock.completed) {
      InFlightDiagnostic diag =
          mlir::emitError(op.getLoc(), "schedule @")
          << op.getSymName() << " deadlocks before any message is added: "
          << deadlock.blocked.size() << " ranks wait forever";
      for (const sched::Problem &blocked : deadlock.blocked)
        diag.attachNote(blocked.rank >= 0 && blocked.index >= 0
                            ? compute.ops[blocked.rank][blocked.index]->getLoc()
                            : op.getLoc())
            << blocked.message;
      return signalPassFailure();
    }
    sched::Schedule withComm =
        sched::insertCommunication(model, compute.schedule);
    OpBuilder builder(op);
    ScheduleOp replacement = buildScheduleOp(
        builder, op.getLoc(), op.getSymName(), pipeline, withComm, op);
    replacement->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    op.erase();
  }
}
