//===- AutoSchedule.h - auto's search, lower bounds, proofs ---*- C++ -*-===//
//
// What `auto` does beyond picking a schedule: the zero-bubble paper's greedy
// scheduler (Qi et al., "Zero Bubble Pipeline Parallelism", ICLR 2024, sec.
// 3.1), lower bounds on the step makespan (busiest rank, critical path,
// memory-limited warm-up, the LP relaxation of the exact model), an exact
// model solved by COIN-OR CBC where the instance is small, a local search
// beyond it, and a report that says which candidate won and whether it is
// proven optimal. docs/Schedules.md (section auto) describes all of it.
//
// Units: microseconds and bytes, as in Schedule.h.
//
//===----------------------------------------------------------------------===//

#ifndef PP_SCHEDULE_AUTOSCHEDULE_H
#define PP_SCHEDULE_AUTOSCHEDULE_H

#include "pp/Schedule/Schedule.h"

#include <string>
#include <vector>

namespace mlir::pp::sched {

//===----------------------------------------------------------------------===//
// Lower bounds
//===----------------------------------------------------------------------===//

/// Lower bounds on the step makespan (SimulationResult::makespan) of every
/// schedule of `numMicrobatches` micro-batches on a pipeline, microseconds.
/// Each is valid for every placement and every schedule order, with split or
/// fused backwards alike (a fused backward costs B + W).
struct LowerBounds {
  /// The busiest rank's total work: max over ranks of M * sum over its
  /// stages of (F + B + W).
  double busiestRankWork = 0.0;
  /// Critical paths through the dependency graph with the stages' own costs
  /// and the latency of every hop between ranks: for every stage s, the
  /// earliest time F(s, 0) can start, plus M forwards of s, plus the chain
  /// the last micro-batch still needs after them (its forwards beyond s, its
  /// B's back to stage 0, W of stage 0); the same for the B's of s; and for
  /// every rank, the earliest start of its first action plus its work, or
  /// plus its F and B work and the least chain left after its last F or B.
  double criticalPath = 0.0;
  /// The memory-limited warm-up bound (Qi et al., ICLR 2024, appendix B):
  /// before a rank's first B, which cannot start before micro-batch 0 has
  /// gone through the whole pipeline and back, the rank can only run as many
  /// forwards as its memory limit holds; it idles the rest of that time.
  /// Equals criticalPath's per-rank part when there is no limit.
  double memoryWarmup = 0.0;
  /// With PipelineModel::computeSlots = K below the ranks: all the work
  /// of every rank over K cores (no schedule keeps more than K busy); else
  /// 0.
  double sharedCores = 0.0;
  /// The LP relaxation of the exact model where the solver ran, else 0.
  double lpRelaxation = 0.0;
  /// The best (largest) of the above; also raised to the proven bound of the
  /// exact solver when it ran (AutoReport::bounds).
  double best = 0.0;
};

/// Computes busiestRankWork, criticalPath, memoryWarmup and sharedCores
/// (lpRelaxation
/// stays 0) for `model` and `numMicrobatches`, with `memoryLimitBytes` per
/// rank counted as simulate() does (0: no limit).
LowerBounds lowerBounds(const PipelineModel &model, int numMicrobatches,
                        int64_t memoryLimitBytes = 0);

/// makespan / bound - 1: how much slower than the bound a schedule is (0 at
/// the bound, within a relative 1e-9 of rounding). 0 if the bound is not
/// positive.
double optimalityGap(double makespan, double bound);

/// One line for reports: "lower bound: 52 us (busiest rank 48, critical path
/// 52, memory warm-up 50), gap 0.0192 (makespan / bound - 1)"; the shared
/// cores and the LP relaxation are listed when positive.
std::string renderBounds(const LowerBounds &bounds, double makespan);

//===----------------------------------------------------------------------===//
// The zero-bubble paper's greedy scheduler
//===----------------------------------------------------------------------===//

/// The three binary hyperparameters of the paper's heuristic (Qi et al.,
/// ICLR 2024, sec. 3.1); the paper grid-searches all eight.
struct ZeroBubbleGreedyPolicy {
  /// Warm-up: schedule one more forward before the first B even if it
  /// leaves a bubble (less than T_F) there ("a binary hyperparameter to
  /// control whether to do it or not").
  bool allowBubbleBeforeFirstB = false;
  /// When stage i has run two or more forwards more than stage i + 1, skip a
  /// forward on stage i if that does not cause more bubble (B prioritized).
  bool prioritizeB = false;
  /// A gap shorter than T_W before an F or B is filled with a W when leaving
  /// it would make this stage's cumulative bubble the largest of all stages;
  /// with this flag, also when it would not (the reference's
  /// no_bubble_greedy).
  bool fillSmallGapsWithW = false;
};

/// The paper's greedy scheduler (sec. 3.1) under one policy, our own
/// implementation: one round per micro-batch in which every stage runs
/// forwards as far as the memory limit and the B-first rule allow, then one
/// B, filling every gap before an input arrives with W's when they fit
/// (and a gap shorter than T_W under the policy's rule), running W's when
/// the memory limit is hit, and finally the W's left. Memory is counted per
/// rank under the model's StashAccounting, with `memoryLimitBytes` per rank
/// (0: no limit). Needs one stage per rank (any costs per stage, any
/// latency) and split backwards (B and W actions; W may cost 0). Errors: the
/// pipeline's shape, or a limit too small for the policy's warm-up ("cannot
/// fit memory", as the reference raises).
llvm::Expected<Schedule> buildZeroBubbleGreedy(const PipelineModel &model,
                                               int numMicrobatches,
                                               int64_t memoryLimitBytes,
                                               ZeroBubbleGreedyPolicy policy);

/// The paper's grid search: buildZeroBubbleGreedy() under all eight
/// policies, keeping the schedule with the smallest largest rank span
/// (SimulationResult::maxRankSpan, the paper's objective), ties by step
/// makespan. Errors if no policy succeeds.
llvm::Expected<Schedule> buildZeroBubbleGreedyBest(const PipelineModel &model,
                                                   int numMicrobatches,
                                                   int64_t memoryLimitBytes);

//===----------------------------------------------------------------------===//
// auto
//===----------------------------------------------------------------------===//

/// What `auto` found, and how good it is proven to be.
struct AutoReport {
  /// The schedule auto returns (compute-only).
  Schedule schedule;
  /// The candidate it came from: "zb-greedy (allow-bubble, prioritize-b)",
  /// "greedy (backward-first)", a named schedule ("zb-h1"), optionally
  /// followed by " + local search" or " + exact" when refinement improved it.
  std::string winner;
  /// Step makespan and largest rank span of `schedule`, microseconds, and
  /// its peak memory over all ranks, bytes.
  double makespan = 0.0;
  double maxRankSpan = 0.0;
  int64_t peakMemoryBytes = 0;
  /// Lower bounds on the step makespan under the same memory limit; when the
  /// exact solver ran, `bounds.best` includes its proven bound.
  LowerBounds bounds;
  /// optimalityGap(makespan, bounds.best).
  double gap = 0.0;
  /// True if no schedule within the limit is better under the objective:
  /// for StepMakespan, the makespan reaches a lower bound or the exact
  /// solver proved it; for MaxRankSpan, the largest span equals the busiest
  /// rank's work (no bubble at all).
  bool provenOptimal = false;
  /// "not run (...)", "optimal", "time limit (gap 0.02)", "unavailable (pp-mlir
  /// built without CBC)", "infeasible".
  std::string solverStatus;
  /// Candidates simulated, and the wall time of the whole search, seconds.
  int numCandidates = 0;
  double seconds = 0.0;
};

/// Runs `auto` (the schedule buildSchedule("auto", ...) returns) and reports
/// on it. Same errors as buildSchedule("auto", ...).
llvm::Expected<AutoReport> planAuto(const PipelineModel &model,
                                    int numMicrobatches,
                                    const ScheduleOptions &options = {});

/// Error unless every rank's simulated peak memory of `schedule` is within
/// `memoryLimitBytes` (0: no limit). The message names the schedule, the
/// rank and the excess: "schedule 'zb-h2' needs 750 bytes (7.5 M_B) on rank
/// 0, 300 bytes (66.7%) more than the memory limit of 450 bytes (4.5 M_B)
/// per rank".
llvm::Error checkMemoryLimit(llvm::StringRef name, const PipelineModel &model,
                             const Schedule &schedule,
                             int64_t memoryLimitBytes);

} // namespace mlir::pp::sched

#endif // PP_SCHEDULE_AUTOSCHEDULE_H
