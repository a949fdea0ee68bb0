//===- ExpandSchedule.cpp - pp-expand-schedule ----------------------------===//
//
// Turns compact pp.schedule ops into their SSA form (expandSchedule in
// ScheduleModel.h).
//
//===----------------------------------------------------------------------===//

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"
#include "pp/Dialect/PP/Transforms/Passes.h"

namespace mlir::pp {
#define GEN_PASS_DEF_PPEXPANDSCHEDULEPASS
#include "pp/Dialect/PP/Transforms/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {
struct PPExpandSchedulePass
    : mlir::pp::impl::PPExpandSchedulePassBase<PPExpandSchedulePass> {
  void runOnOperation() override {
    bool changed = false;
    for (ScheduleOp op :
         llvm::make_early_inc_range(getOperation().getOps<ScheduleOp>()))
      if (op.isCompact()) {
        expandSchedule(op);
        changed = true;
      }
    if (!changed)
      markAllAnalysesPreserved();
  }
};
} // namespace
