//===- PlaceStages.cpp - pp-place-stages ----------------------------------===//

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"
#include "pp/Dialect/PP/Transforms/Passes.h"
#include "pp/Schedule/Schedule.h"
#include "pp/Support/Diagnostics.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"

#include <limits>

namespace mlir::pp {
#define GEN_PASS_DEF_PPPLACESTAGESPASS
#include "pp/Dialect/PP/Transforms/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {
struct PPPlaceStagesPass
    : mlir::pp::impl::PPPlaceStagesPassBase<PPPlaceStagesPass> {
  using Base::Base;
  void runOnOperation() override;
  /// The rank of every stage, or failure (reported at `pipeline`).
  FailureOr<SmallVector<int64_t>> ranksFor(PipelineOp pipeline, int64_t ranks);
};
} // namespace

FailureOr<SmallVector<int64_t>> PPPlaceStagesPass::ranksFor(PipelineOp pipeline,
                                                            int64_t ranks) {
  int64_t numStages = pipeline.getNumStages();
  StringRef text = StringRef(placement).trim();
  std::optional<sched::Placement> kind;
  if (text == "loop")
    kind = sched::Placement::Loop;
  else if (text == "v")
    kind = sched::Placement::V;
  if (kind) {
    if (numStages % ranks != 0) {
      mlir::emitError(pipeline.getLoc(), "placement '")
          << text << "' needs a multiple of " << ranks
          << " stages, but the pipeline has " << numStages;
      return failure();
    }
    llvm::Expected<std::vector<int>> placed =
        sched::placeStages(*kind, ranks, numStages / ranks);
    if (!placed) {
      mlir::emitError(pipeline.getLoc()) << llvm::toString(placed.takeError());
      return failure();
    }
    return SmallVector<int64_t>(placed->begin(), placed->end());
  }
  SmallVector<StringRef> items;
  text.split(items, ',');
  SmallVector<int64_t> result;
  for (StringRef item : items) {
    int64_t rank;
    if (item.trim().getAsInteger(10, rank)) {
      mlir::emitError(pipeline.getLoc(),
                      "option 'placement' must be 'loop', "
                      "'v' or a comma-separated rank per stage, got '")
          << placement << "'";
      return failure();
    }
    if (rank < 0 || rank >= ranks) {
      mlir::emitError(pipeline.getLoc(), "rank ")
          << rank << " in the placement is out of range: the pipeline has "
          << ranks << " ranks";
      return failure();
    }
    result.push_back(rank);
  }
  if (static_cast<int64_t>(result.size()) != numStages) {
    mlir::emitError(pipeline.getLoc(), "the placement names ")
        << result.size() << " ranks, but the pipeline has " << numStages
        << " stages";
    return failure();
  }
  return result;
}

void PPPlaceStagesPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (StringRef(placement).trim().empty()) {
    mlir::emitError(module.getLoc(), "option 'placement' is required: loop, "
                                     "v, or a comma-separated rank per stage");
    return signalPassFailure();
  }
  if (failed(
          checkOptionRange(module.getLoc(), "ranks", numRanks, 0, kMaxIndex)))
    return signalPassFailure();
  FailureOr<SmallVector<PipelineOp>> pipelines =
      selectPipelines(module, pipelineName);
  if (failed(pipelines))
    return signalPassFailure();
  for (PipelineOp pipeline : *pipelines) {
    int64_t ranks = numRanks > 0 ? int64_t(numRanks) : pipeline.getNumRanks();
    FailureOr<SmallVector<int64_t>> placed = ranksFor(pipeline, ranks);
    if (failed(placed))
      return signalPassFailure();
    Builder builder(pipeline.getContext());
    pipeline.setNumRanksAttr(builder.getI64IntegerAttr(ranks));
    for (StageOp stage : pipeline.getStagesByIndex())
      stage.setRankAttr(builder.getI64IntegerAttr((*placed)[stage.getIndex()]));
  }
}
