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
  if (op.isCompact()) {
    ArrayRef<int32_t> words = op.getPackedActionsAttr().asArrayRef();
    for (size_t i = 0; i + kPackedWords <= words.size(); i += kPackedWords)
      if (unpackAction(words.slice(i, kPackedWords))
              .value_or(sched::Action{})
              .isComm())
        return true;
    return false;
  }
  for (Region &region : op.getRanks())
    for (Operation &action : region.front())
      if (isa<SendOp, RecvOp>(action))
        return true;
  return false;
}

void PPInsertCommunicationPass::runOnOperation() {
  ModuleOp module = getOperation();
  bool changed = false;
  for (ScheduleOp op :
       llvm::make_early_inc_range(module.getOps<ScheduleOp>())) {
    if (communicates(op))
      continue;
    changed = true;
    PipelineOp pipeline = op.getPipelineOp();
    // The verifier ran before this pass, so the pipeline exists and the
    // schedule passes the library's structural checks.
    sched::PipelineModel model = getPipelineModel(pipeline);
    ScheduleModel compute = getScheduleModel(op);
    FailureOr<sched::Schedule> withComm =
        addCommunication(model, compute.schedule, op.getLoc(), op.getSymName(),
                         [&](int rank, int index) -> Location {
                           return rank >= 0 && index >= 0
                                      ? compute.ops[rank][index]->getLoc()
                                      : op.getLoc();
                         });
    if (failed(withComm))
      return signalPassFailure();
    // In the form it came in; the SSA form keeps locations and types.
    OpBuilder builder(op);
    ScheduleOp replacement =
        op.isCompact()
            ? buildCompactScheduleOp(builder, op.getLoc(), op.getSymName(),
                                     pipeline, *withComm)
            : buildScheduleOp(builder, op.getLoc(), op.getSymName(), pipeline,
                              *withComm, op);
    replacement->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    op.erase();
  }
  // Nothing to do (every schedule communicates already, as pp-plan's
  // pp-schedule{communicate} leaves them): the IR is as verified before.
  if (!changed)
    markAllAnalysesPreserved();
}
