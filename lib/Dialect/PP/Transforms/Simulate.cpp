//===- Simulate.cpp - pp-simulate -----------------------------------------===//

#include "pp/Dialect/PP/IR/PPOps.h"
#include "pp/Dialect/PP/IR/ScheduleModel.h"
#include "pp/Dialect/PP/Transforms/Passes.h"
#include "pp/Support/Diagnostics.h"
#include "pp/Support/ReportStream.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::pp {
#define GEN_PASS_DEF_PPSIMULATEPASS
#include "pp/Dialect/PP/Transforms/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {

/// Above this many ranks the ASCII timeline is printed only when asked for.
constexpr int kCompactRanks = 16;
struct PPSimulatePass : mlir::pp::impl::PPSimulatePassBase<PPSimulatePass> {
  using Base::Base;
  void runOnOperation() override;
  /// The schedule's pp.allreduce ops: each one's interval overlapped and at
  /// the end of the step, and both steps (sched::simulateDataParallel).
  /// Returns the overlapped intervals (for the Chrome trace, the timeline
  /// and the metrics) and sets `atEnd` to the same reduced at the end.
  std::vector<sched::TraceSpan>
  reportAllReduces(llvm::raw_ostream &os, const sched::PipelineModel &model,
                   const ScheduleModel &schedule,
                   const sched::SimulationResult &result,
                   std::vector<sched::TraceSpan> &atEnd);
};
} // namespace

/// Writes `text` to `path`; reports failure at `loc`.
static LogicalResult writeFile(Location loc, StringRef path, StringRef text) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file)
    return emitError(loc, "cannot write '") << path << "': " << error;
  file->os() << text;
  file->keep();
  return success();
}

std::vector<sched::TraceSpan> PPSimulatePass::reportAllReduces(
    llvm::raw_ostream &os, const sched::PipelineModel &model,
    const ScheduleModel &schedule, const sched::SimulationResult &result,
    std::vector<sched::TraceSpan> &atEnd) {
  sched::DataParallelResult step = schedule.simulateAllReduces(
      model, result, allReduceBandwidth, allReduceLatency);
  os << "data parallel: " << schedule.replicas
     << " replicas, ring all-reduce at "
     << llvm::format("%.3g", allReduceBandwidth.getValue()) << " bytes/s, "
     << llvm::format("%.3g", allReduceLatency.getValue())
     << " us per message\n";
  for (auto [now, late] : llvm::zip_equal(step.overlapped, step.atEnd))
    os << "  all-reduce of stage " << now.stage << " on rank " << now.rank
       << " (" << schedule.gradientBytes[now.stage]
       << " bytes): " << llvm::format("%.3f", now.start) << " - "
       << llvm::format("%.3f", now.end)
       << " us (at the end of the step: " << llvm::format("%.3f", late.start)
       << " - " << llvm::format("%.3f", late.end) << " us)\n";
  // Per rank: its all-reduce time and when they are done, against its
  // last action and the same all-reduces at the end.
  std::vector<sched::TraceSpan> spans =
      sched::allReduceSpans(step, schedule.gradientBytes);
  atEnd = spans;
  for (auto [span, late] : llvm::zip_equal(atEnd, step.atEnd)) {
    span.start = late.start;
    span.end = late.end;
  }
  std::vector<sched::RankAllReduces> now =
      sched::allReducesPerRank(spans, model.numRanks);
  std::vector<sched::RankAllReduces> late =
      sched::allReducesPerRank(atEnd, model.numRanks);
  for (int r = 0; r < model.numRanks; ++r)
    if (now[r].time > 0)
      os << "  rank " << r << ": all-reduces "
         << llvm::format("%.3f", now[r].time) << " us, done at "
         << llvm::format("%.3f", now[r].end) << " us (last action "
         << llvm::format("%.3f", result.ranks[r].endTime)
         << " us; at the end of the step: " << llvm::format("%.3f", late[r].end)
         << " us)\n";
  double saved =
      step.makespanAtEnd > 0 ? 1.0 - step.makespan / step.makespanAtEnd : 0.0;
  os << "  step " << llvm::format("%.3f", step.makespan)
     << " us with the all-reduces overlapped, "
     << llvm::format("%.3f", step.makespanAtEnd) << " us reduced at the end ("
     << llvm::format("%.1f", 100 * saved) << "% shorter); pipeline alone "
     << llvm::format("%.3f", result.makespan)
     << " us, all-reduce time of the busiest rank "
     << llvm::format("%.3f", step.allReduceTime) << " us\n";
  return spans;
}

void PPSimulatePass::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<ScheduleOp> schedules(module.getOps<ScheduleOp>());
  if (schedules.empty()) {
    mlir::emitError(module.getLoc(), "the module has no pp.schedule; run "
                                     "pp-schedule first");
    return signalPassFailure();
  }
  if (schedules.size() > 1 && (!traceFile.empty() || !metricsFile.empty())) {
    mlir::emitError(module.getLoc(),
                    "'trace' and 'metrics' write one schedule, "
                    "but the module has ")
        << schedules.size();
    return signalPassFailure();
  }
  FailureOr<sched::StashAccounting> accounting =
      parseStashAccountingOption(stashAccounting, module.getLoc());
  if (failed(accounting))
    return signalPassFailure();
  if (failed(checkOptionRange(module.getLoc(), "compute-slots", computeSlots, 0,
                              4096)))
    return signalPassFailure();
  ReportStream report;
  if (failed(report.open(reportFile, module.getLoc())))
    return signalPassFailure();
  llvm::raw_ostream &os = report.os();
  for (ScheduleOp op : schedules) {
    PipelineOp pipeline = op.getPipelineOp();
    sched::PipelineModel model = getPipelineModel(pipeline);
    model.stashAccounting = *accounting;
    model.computeSlots = static_cast<int>(computeSlots);
    ScheduleModel schedule = getScheduleModel(op);
    sched::DeadlockReport deadlock =
        sched::findDeadlock(model, schedule.schedule);
    if (!deadlock.completed) {
      mlir::emitError(op.getLoc(), "schedule @")
          << op.getSymName()
          << " deadlocks; run pp-verify-schedule for the details";
      return signalPassFailure();
    }
    sched::SimulationResult result = sched::simulate(model, schedule.schedule);
    os << "schedule @" << op.getSymName() << " (pipeline @"
       << pipeline.getSymName() << ")\n";
    if (computeSlots > 0 && computeSlots < model.numRanks)
      os << "compute slots: the " << model.numRanks << " ranks share "
         << computeSlots << " core(s)\n";
    os << sched::renderReport(model, schedule.schedule, result);
    std::vector<sched::TraceSpan> allReduces, allReducesAtEnd;
    if (!schedule.allReduces.empty()) {
      if (failed(checkRingOptions(op.getLoc(), allReduceBandwidth,
                                  allReduceLatency)))
        return signalPassFailure();
      allReduces =
          reportAllReduces(os, model, schedule, result, allReducesAtEnd);
    }
    // By default a large pipeline's timeline (more than kCompactRanks
    // rows, each up to 2000 cells) is left out: the report stays readable
    // and fast; timeline=true prints it anyway.
    if (printTimeline && !printTimeline.hasValue() &&
        model.numRanks > kCompactRanks)
      os << "timeline: left out for " << model.numRanks << " ranks (more than "
         << kCompactRanks << "); timeline=true prints it\n";
    else if (printTimeline)
      os << sched::renderTimeline(model, schedule.schedule, result, allReduces);
    os.flush();
    if (!traceFile.empty() &&
        failed(writeFile(op.getLoc(), traceFile,
                         sched::chromeTraceJSON(model, schedule.schedule,
                                                result, allReduces))))
      return signalPassFailure();
    if (!metricsFile.empty() &&
        failed(writeFile(op.getLoc(), metricsFile,
                         sched::metricsJSON(model, schedule.schedule, result,
                                            allReduces, allReducesAtEnd))))
      return signalPassFailure();
  }
  markAllAnalysesPreserved();
}
