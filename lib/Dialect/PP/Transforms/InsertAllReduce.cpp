//===- InsertAllReduce.cpp - pp-insert-allreduce --------------------------===//
//
// Places each stage's gradient all-reduce over the data-parallel replicas
// right after the stage's last W (or fused backward) on its rank
// (sched::placeAllReduces), or with at-end after the rank's last action. Run it
// after pp-insert-communication, which rebuilds the schedule from its actions.
//
//===----------------------------------------------------------------------===//

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"
#include "pp/Dialect/PP/Transforms/GradientBytes.h"
#include "pp/Dialect/PP/Transforms/Passes.h"
#include "pp/Support/Diagnostics.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::pp {
#define GEN_PASS_DEF_PPINSERTALLREDUCEPASS
#include "pp/Dialect/PP/Transforms/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {
struct PPInsertAllReducePass
    : mlir::pp::impl::PPInsertAllReducePassBase<PPInsertAllReducePass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void PPInsertAllReducePass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(
          checkOptionRange(module.getLoc(), "replicas", replicas, 1, 4096)) ||
      failed(checkOptionRange(module.getLoc(), "bucket-bytes", bucketBytes, 0,
                              int64_t(1) << 50)))
    return signalPassFailure();
  FailureOr<SmallVector<PipelineOp>> pipelines =
      selectPipelines(module, pipelineName);
  if (failed(pipelines))
    return signalPassFailure();
  for (PipelineOp pipeline : *pipelines) {
    std::vector<int64_t> bytes(
        llvm::range_size(pipeline.getBody().getOps<StageOp>()), 0);
    // Given bytes are checked even with one replica.
    if (replicas > 1 || !gradientBytes.empty()) {
      FailureOr<std::vector<int64_t>> stageBytes =
          getStageGradientBytes(module, pipeline, gradientBytes);
      if (failed(stageBytes))
        return signalPassFailure();
      bytes = std::move(*stageBytes);
    }
    for (ScheduleOp op :
         llvm::make_early_inc_range(module.getOps<ScheduleOp>())) {
      if (op.getPipeline() != pipeline.getSymName())
        continue;
      // Any earlier all-reduces go: the compact form lists its own, the
      // SSA form has them as ops.
      for (Region &region : op.getRanks())
        for (Operation &action : llvm::make_early_inc_range(region.front()))
          if (isa<AllReduceOp>(action))
            action.erase();
      ScheduleModel schedule = getScheduleModel(op);
      std::vector<PackedAllReduce> entries;
      std::vector<sched::AllReducePlacement> placements;
      if (replicas > 1)
        placements = sched::bucketAllReduces(
            sched::placeAllReduces(schedule.schedule), bytes, bucketBytes);
      if (atEnd)
        placements = sched::deferAllReduces(placements, schedule.schedule);
      for (const sched::AllReducePlacement &p : placements)
        entries.push_back({p.rank, static_cast<int64_t>(p.after), p.stage,
                           replicas, bytes[p.stage], p.bucket});
      if (!op.isCompact()) {
        insertAllReduceOps(schedule, entries);
        continue;
      }
      // A compact schedule stays compact, with the entries as its list.
      OpBuilder builder(op);
      ScheduleOp replacement =
          buildCompactScheduleOp(builder, op.getLoc(), op.getSymName(),
                                 pipeline, schedule.schedule, entries);
      replacement->setDiscardableAttrs(op->getDiscardableAttrDictionary());
      op.erase();
    }
  }
}
