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
#include "pp/Dialect/PP/Transforms/Passes.h"
#include "pp/Support/Diagnostics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
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

/// Bytes of one tensor type (statically shaped), or -1.
static int64_t bytesOf(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return -1;
  int64_t bits = tensor.getElementTypeBitWidth();
  return tensor.getNumElements() * ((bits + 7) / 8);
}

/// The bytes of `stage`'s parameters: its backward (or B) function's
/// `pp.parameter` arguments; -1 if the stage names no such function.
static int64_t parameterBytes(ModuleOp module, StageOp stage) {
  std::optional<StringRef> name = stage.getBackward();
  if (!name)
    name = stage.getBackwardInput();
  if (!name)
    return -1;
  auto fn = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      module, StringAttr::get(module.getContext(), *name));
  if (!fn)
    return -1;
  int64_t total = 0;
  for (unsigned i = 0; i < fn.getNumArguments(); ++i)
    if (fn.getArgAttr(i, "pp.parameter")) {
      int64_t b = bytesOf(fn.getArgument(i).getType());
      if (b < 0)
        return -1;
      total += b;
    }
  return total;
}

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
  for (auto [i, b] : llvm::enumerate(gradientBytes))
    if (b < 0) {
      mlir::emitError(module.getLoc(), "option 'gradient-bytes': entry ")
          << i << " is " << b << "; bytes must be >= 0";
      return signalPassFailure();
    }
  for (PipelineOp pipeline : *pipelines) {
    // Each stage's bytes: from the option (one entry per stage, or one for
    // every stage), else from the stage's functions.
    SmallVector<StageOp> stages(pipeline.getBody().getOps<StageOp>());
    if (gradientBytes.size() > 1 && gradientBytes.size() != stages.size()) {
      mlir::emitError(pipeline.getLoc(), "option 'gradient-bytes' has ")
          << gradientBytes.size() << " entries, but pipeline @"
          << pipeline.getSymName() << " has " << stages.size()
          << " stages; give one per stage, or one for every stage";
      return signalPassFailure();
    }
    std::vector<int64_t> bytes(stages.size(), 0);
    for (StageOp stage : stages) {
      if (replicas == 1)
        break;
      int64_t s = stage.getIndex();
      int64_t b = gradientBytes.size() == 1 ? gradientBytes[0]
                  : !gradientBytes.empty()  ? gradientBytes[s]
                                            : parameterBytes(module, stage);
      if (b < 0) {
        stage.emitError("the bytes of stage ")
            << s << "'s gradients are unknown (an abstract stage): give "
            << "them with 'gradient-bytes'";
        return signalPassFailure();
      }
      bytes[s] = b;
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
