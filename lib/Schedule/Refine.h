//===- Refine.h - auto's refinement of a schedule (internal) ----*- C++ -*-===//
//
// The two ways `auto` improves its best heuristic schedule: a local search
// (LocalSearch.cpp) and an exact model solved by COIN-OR CBC (Exact.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef PP_LIB_SCHEDULE_REFINE_H
#define PP_LIB_SCHEDULE_REFINE_H

#include "pp/Schedule/Schedule.h"

#include <optional>
#include <string>

namespace mlir::pp::sched::detail {

/// What auto minimizes: the step makespan, then the largest rank span, then
/// the peak memory (AutoObjective::StepMakespan); or the span, then the
/// makespan, then the peak (MaxRankSpan).
struct Score {
  double makespan = 0.0;
  double maxRankSpan = 0.0;
  int64_t peak = 0;
  /// False if the schedule deadlocks (some action never runs).
  bool complete = true;

  /// True if this score is strictly better than `other` under `objective`
  /// (times compared with a relative tolerance of 1e-9).
  bool betterThan(const Score &other, AutoObjective objective) const;
};

/// Simulates a compute-only `schedule` and scores it.
Score scoreOf(const PipelineModel &model, const Schedule &schedule);

/// Local search on a compute-only schedule: at the longest gaps where a rank
/// idles before an action (150 a round), tries moving the rank's next W into
/// the gap and swapping the action with the next one; keeps every move that
/// improves the Score within `memoryLimitBytes` (0: none) and leaves the
/// schedule deadlock-free. `rounds` passes over the schedule, fewer if a
/// pass finds nothing. Returns true if it improved `schedule`.
bool localSearch(const PipelineModel &model, Schedule &schedule,
                 int64_t memoryLimitBytes, int rounds, AutoObjective objective);

/// Result of the exact model.
struct ExactResult {
  /// "optimal", "time limit", "infeasible", "unavailable (...)", "not run
  /// (...)".
  std::string status;
  /// A schedule better than the incumbent, if the solver found one.
  std::optional<Schedule> improved;
  /// True if the solver proved that no schedule within the limit has a
  /// smaller makespan than min(incumbent, improved).
  bool provenOptimal = false;
  /// The solver's proven lower bound on the makespan (0 if none) and the
  /// root LP relaxation's value (0 if not solved).
  double bound = 0.0;
  double lpRelaxation = 0.0;
};

/// Minimizes the step makespan exactly: a MIP over start times and the
/// order of every pair of actions on a rank (the zero-bubble paper's ILP,
/// Qi et al., ICLR 2024, appendix G, with the step makespan as objective and
/// each (stage, kind) in micro-batch order, which loses no optimum since
/// micro-batches are identical), memory counted as simulate() counts it.
/// Seeded with `incumbent` (its makespan bounds every start time); solved by
/// CBC within `seconds`. `lowerBound` is added as a constraint. Backwards are
/// split (B and W) when the model has W work: a proof then covers fused
/// backwards too unless a B needs more memory than a fused backward (M_W
/// held during B, StashAccounting::HoldDuringBackward with M_W > 0), in
/// which case the status says "optimal among split backwards" and nothing
/// is claimed.
ExactResult solveExact(const PipelineModel &model, int numMicrobatches,
                       int64_t memoryLimitBytes, const Schedule &incumbent,
                       double seconds, double lowerBound);

/// True if pp-mlir was built with COIN-OR CBC.
bool haveExactSolver();

} // namespace mlir::pp::sched::detail

#endif // PP_LIB_SCHEDULE_REFINE_H
