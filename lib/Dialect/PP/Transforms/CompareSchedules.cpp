//===- CompareSchedules.cpp - pp-compare-schedules -------------------------===//

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"
#include "pp/Dialect/PP/Transforms/Passes.h"
#include "pp/Schedule/Compare.h"
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
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  if (numMicrobatches < 1 || numMicrobatches > kMax) {
    mlir::emitError(module.getLoc(),
                    "pp-compare-schedules: option 'num-microbatches' is "
                    "required and must be in [1, ")
        << kMax << "], got " << numMicrobatches.getValue();
    return signalPassFailure();
  }
  if (groupSize < 0 || groupSize > kMax) {
    mlir::emitError(module.getLoc(),
                    "pp-compare-schedules: option 'group-size' must be in "
                    "[0, ")
        << kMax << "], got " << groupSize.getValue();
    return signalPassFailure();
  }
  ReportStream report;
  std::string error;
  if (!report.open(reportFile, error)) {
    mlir::emitError(module.getLoc(), "cannot write '")
        << reportFile << "': " << error;
    return signalPassFailure();
  }
  bool found = false;
  for (PipelineOp pipeline : module.getOps<PipelineOp>()) {
    if (!pipelineName.empty() && pipeline.getSymName() != pipelineName)
      continue;
    found = true;
    sched::PipelineModel model = getPipelineModel(pipeline);
    llvm::Expected<int64_t> limit = parseMemoryLimit(memoryLimitText, model);
    if (!limit) {
      mlir::emitError(pipeline.getLoc(), "pp-compare-schedules: ")
          << llvm::toString(limit.takeError());
      return signalPassFailure();
    }
    sched::ScheduleOptions options;
    options.groupSize = groupSize;
    options.memoryLimitBytes = *limit;
    sched::Comparison comparison =
        sched::compareSchedules(model, numMicrobatches, options);
    report.os() << "pipeline @" << pipeline.getSymName() << ": "
                 << model.numRanks << " ranks, " << model.numStages()
                 << " stages, " << numMicrobatches.getValue()
                 << " micro-batches\n"
                 << sched::renderComparison(model, comparison, options);
  }
  if (!found) {
    mlir::emitError(module.getLoc(), "pp-compare-schedules: ")
        << (pipelineName.empty()
                ? std::string("the module has no pp.pipeline")
                : "no pp.pipeline named @" + pipelineName);
    return signalPassFailure();
  }
  markAllAnalysesPreserved();
}
