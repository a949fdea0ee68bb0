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
};

/// The comparison of every registered schedule (scheduleNames() order) on
/// `model` with `numMicrobatches`, and the recommended one.
struct Comparison {
  std::vector<ComparisonRow> rows;
  /// Index into rows of the built schedule that fits the memory limit with
  /// the smallest makespan (ties: less peak memory, then registry order);
  /// -1 if none fits.
  int recommended = -1;
  /// Lower bounds on the makespan of every schedule within the memory limit.
  LowerBounds bounds;
};

/// Builds, simulates and compares every schedule. `options` is passed to
/// every generator (group size, memory limit for "auto"; the named ones are
/// built without the limit, so that a row shows what they would need); the
/// memory limit decides `fits`. Schedules that do not apply get a row with
/// `error`.
Comparison compareSchedules(const PipelineModel &model, int numMicrobatches,
                            const ScheduleOptions &options);

/// The comparison as a Markdown table (one row per schedule: makespan,
/// bubble rate, span bubble rate, gap to the lower bound, peak memory of the
/// busiest rank in bytes and in M_B, per-rank peaks in M_B, P2P messages,
/// fits), followed by a line with the lower bound (renderBounds() of the
/// recommended schedule) and a line naming the recommendation.
std::string renderComparison(const PipelineModel &model,
                             const Comparison &comparison,
                             const ScheduleOptions &options);

} // namespace mlir::pp::sched

#endif // PP_SCHEDULE_COMPARE_H
