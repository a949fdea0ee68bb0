//===- CompareSchedules.cpp - pp-compare-schedules ------------------------===//

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"
#include "pp/Dialect/PP/Transforms/GradientBytes.h"
#include "pp/Dialect/PP/Transforms/Passes.h"
#include "pp/Schedule/Compare.h"
#include "pp/Support/Diagnostics.h"
#include "pp/Support/ReportStream.h"

#include "llvm/Support/raw_ostream.h"

#include <limits>

namespace mlir::pp {
#define GEN_PASS_DEF_PPCOMPARESCHEDULESPASS
#include "pp/Dialect/PP/Transforms/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {
struct PPCompareSchedulesPass
    : mlir::pp::impl::PPCompareSchedulesPassBase<PPCompareSchedulesPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void PPCompareSchedulesPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(checkOptionRange(module.getLoc(), "num-microbatches",
                              numMicrobatches, 1, kMaxIndex,
                              /*required=*/true)) ||
      failed(checkOptionRange(module.getLoc(), "group-size", groupSize, 0,
                              kMaxIndex)) ||
      failed(checkOptionRange(module.getLoc(), "replicas", replicas, 1, 4096)))
    return signalPassFailure();
  if (replicas > 1 &&
      failed(checkRingOptions(module.getLoc(), allReduceBandwidth,
                              allReduceLatency)))
    return signalPassFailure();
  FailureOr<sched::StashAccounting> accounting =
      parseStashAccountingOption(stashAccounting, module.getLoc());
  if (failed(accounting))
    return signalPassFailure();
  ReportStream report;
  if (failed(report.open(reportFile, module.getLoc())))
    return signalPassFailure();
  FailureOr<SmallVector<PipelineOp>> pipelines =
      selectPipelines(module, pipelineName, /*required=*/true);
  if (failed(pipelines))
    return signalPassFailure();
  for (PipelineOp pipeline : *pipelines) {
    sched::PipelineModel model = getPipelineModel(pipeline);
    model.stashAccounting = *accounting;
    llvm::Expected<int64_t> limit = parseMemoryLimit(memoryLimitText, model);
    if (!limit) {
      mlir::emitError(pipeline.getLoc()) << llvm::toString(limit.takeError());
      return signalPassFailure();
    }
    sched::ScheduleOptions options;
    options.groupSize = groupSize;
    options.memoryLimitBytes = *limit;
    sched::DataParallelModel dataParallel;
    if (replicas > 1) {
      FailureOr<std::vector<int64_t>> bytes =
          getStageGradientBytes(module, pipeline, gradientBytes);
      if (failed(bytes))
        return signalPassFailure();
      dataParallel.replicas = replicas;
      dataParallel.bandwidth = allReduceBandwidth;
      dataParallel.latency = allReduceLatency;
      dataParallel.gradientBytes = std::move(*bytes);
    }
    sched::Comparison comparison =
        sched::compareSchedules(model, numMicrobatches, options, dataParallel);
    report.os() << "pipeline @" << pipeline.getSymName() << ": "
                << model.numRanks << " ranks, " << model.numStages()
                << " stages, " << numMicrobatches.getValue()
                << " micro-batches\n"
                << sched::renderComparison(model, comparison, options);
  }
  markAllAnalysesPreserved();
}
