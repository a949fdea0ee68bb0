//===- Compare.h - Comparing schedules on one pipeline ----------*- C++ -*-===//
//
// Builds every schedule that fits a pipeline, simulates each under the
// pipeline's costs and reports them side by side with a recommendation under
// a memory limit: the "which schedule?" question answered from the user's own
// costs.
//
//===----------------------------------------------------------------------===//

#ifndef PP_SCHEDULE_COMPARE_H
#define PP_SCHEDULE_COMPARE_H

#include "pp/Schedule/AutoSchedule.h"
#include "pp/Schedule/DataParallel.h"
#include "pp/Schedule/Schedule.h"

#include <string>
#include <vector>

namespace mlir::pp::sched {

/// One schedule's figures on one pipeline.
struct ComparisonRow {
  std::string name;
  /// Empty if the schedule was built; otherwise why it does not apply (for
  /// example "'zb-v' needs the V placement").
  std::string error;
  /// Time until the last action ends, microseconds.
  double makespan = 0.0;
  /// Zero-bubble paper's bubble rate (see SimulationResult::bubbleRate).
  double bubbleRate = 0.0;
  /// The paper's bubble rate over per-rank spans and the largest span
  /// (SimulationResult::spanBubbleRate, maxRankSpan).
  double spanBubbleRate = 0.0;
  double maxRankSpan = 0.0;
  /// makespan / Comparison::bounds.best - 1 for a schedule that fits (the
  /// bounds hold for schedules within the limit), else -1.
  double gap = -1.0;
  /// Peak activation memory of the busiest rank, bytes, and of every rank.
  int64_t peakMemoryBytes = 0;
  std::vector<int64_t> peakMemoryPerRank;
  /// Point-to-point messages of one training step (sends over all ranks).
  int64_t numMessages = 0;
  /// True if peakMemoryBytes <= the limit (always true without a limit).
  bool fits = true;
  /// With replicas (compareSchedules' `dataParallel`): the step with each
  /// stage's all-reduce after its last W (placeAllReduces), overlapped,
  /// and with all of them reduced at the end (simulateDataParallel),
  /// microseconds; 0 without.
  double dataParallelStep = 0.0;
  double dataParallelStepAtEnd = 0.0;
};

/// The comparison of every registered schedule (scheduleNames() order) on
/// `model` with `numMicrobatches`, and the recommended one.
struct Comparison {
  std::vector<ComparisonRow> rows;
  /// Index into rows of the built schedule that fits the memory limit with
  /// the smallest step: the makespan, or with replicas the data-parallel
  /// step (ties: less peak memory, then registry order); -1 if none fits.
  int recommended = -1;
  /// Lower bounds on the makespan of every schedule within the memory limit.
  LowerBounds bounds;
  /// The replicas compared under (replicas <= 1: none).
  DataParallelModel dataParallel;
};

/// Builds, simulates and compares every schedule. `options` is passed to
/// every generator (group size, memory limit for "auto"; the named ones are
/// built without the limit, so that a row shows what they would need); the
/// memory limit decides `fits`. Schedules that do not apply get a row with
/// `error`. With `dataParallel.replicas` > 1 every row also gets the step
/// of D replicas with each stage's all-reduce of
/// `dataParallel.gradientBytes` (one entry per stage) over the ring, and
/// the recommendation goes by that step: the schedule that leaves the most
/// room after a stage's last W overlaps the most.
Comparison compareSchedules(const PipelineModel &model, int numMicrobatches,
                            const ScheduleOptions &options,
                            const DataParallelModel &dataParallel = {});

/// The comparison as a Markdown table (one row per schedule: makespan,
/// bubble rate, span bubble rate, gap to the lower bound, peak memory of the
/// busiest rank in bytes and in M_B, per-rank peaks in M_B, P2P messages,
/// fits; with replicas also the step with the all-reduces overlapped and
/// reduced at the end), followed by a line with the lower bound
/// (renderBounds() of the recommended schedule) and a line naming the
/// recommendation.
std::string renderComparison(const PipelineModel &model,
                             const Comparison &comparison,
                             const ScheduleOptions &options);

} // namespace mlir::pp::sched

#endif // PP_SCHEDULE_COMPARE_H
