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
};

/// Builds, simulates and compares every schedule. `options` is passed to
/// every generator (group size, memory limit for "auto"); the memory limit
/// also decides `fits`. Schedules that do not apply get a row with `error`.
Comparison compareSchedules(const PipelineModel &model, int numMicrobatches,
                            const ScheduleOptions &options);

/// The comparison as a Markdown table (one row per schedule: makespan,
/// bubble rate, peak memory of the busiest rank in bytes and in M_B, per-rank
/// peaks in M_B, P2P messages, fits), followed by a line naming the
/// recommendation.
std::string renderComparison(const PipelineModel &model,
                             const Comparison &comparison,
                             const ScheduleOptions &options);

} // namespace mlir::pp::sched

#endif // PP_SCHEDULE_COMPARE_H
