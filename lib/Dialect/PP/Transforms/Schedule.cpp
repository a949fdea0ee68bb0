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

#include <cmath>
#include <limits>

namespace mlir::pp {
#define GEN_PASS_DEF_PPSCHEDULEPASS
#include "pp/Dialect/PP/Transforms/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

/// Micro-batch counts, ranks and stages are `int` in the schedule library.
static constexpr int64_t kMaxIndex = std::numeric_limits<int32_t>::max();

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
  if (numMicrobatches < 1 || numMicrobatches > kMaxIndex) {
    mlir::emitError(module.getLoc(),
                    "pp-schedule: option 'num-microbatches' is required and "
                    "must be in [1, ")
        << kMaxIndex << "], got " << numMicrobatches.getValue();
    return signalPassFailure();
  }
  if (groupSize < 0 || groupSize > kMaxIndex) {
    mlir::emitError(module.getLoc(),
                    "pp-schedule: option 'group-size' must be in [0, ")
        << kMaxIndex << "], got " << groupSize.getValue();
    return signalPassFailure();
  }
  sched::ScheduleOptions options;
  options.groupSize = groupSize;

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
    llvm::Expected<int64_t> memoryLimit =
        parseMemoryLimit(memoryLimitText, model);
    if (!memoryLimit) {
      mlir::emitError(pipeline.getLoc(), "pp-schedule: ")
          << llvm::toString(memoryLimit.takeError());
      return signalPassFailure();
    }
    options.memoryLimitBytes = *memoryLimit;
    llvm::Expected<sched::Schedule> schedule =
        sched::buildSchedule(scheduleName, model, numMicrobatches, options);
    if (!schedule) {
      mlir::emitError(pipeline.getLoc(), "pp-schedule: ")
          << llvm::toString(schedule.takeError());
      return signalPassFailure();
    }
    std::string suffix = scheduleName;
    std::replace(suffix.begin(), suffix.end(), '-', '_');
    std::string name = (pipeline.getSymName() + "_" + suffix).str();
    // Replace an earlier schedule of the same name; never anything else.
    if (Operation *old = symbols.lookup(name)) {
      auto oldSchedule = dyn_cast<ScheduleOp>(old);
      if (!oldSchedule) {
        mlir::emitError(pipeline.getLoc(), "pp-schedule: cannot name the "
                                           "schedule @")
                .append(name, ": that symbol is a '", old->getName(), "'")
                .attachNote(old->getLoc())
            << "the symbol is defined here";
        return signalPassFailure();
      }
      symbols.erase(oldSchedule);
    }
    OpBuilder builder(pipeline);
    builder.setInsertionPointAfter(pipeline);
    ScheduleOp op =
        buildScheduleOp(builder, pipeline.getLoc(), name, pipeline, *schedule);
    symbols.insert(op);
  }
}
