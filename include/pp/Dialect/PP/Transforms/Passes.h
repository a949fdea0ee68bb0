//===- Passes.h - passes on pp ops ------------------------------*- C++ -*-===//
//
// Passes that read and write `pp.pipeline` and `pp.schedule`: schedules,
// placement, communication, verification, simulation and comparison
// (docs/Passes/PPPasses.md). They are thin adapters over the plain C++
// schedule library (pp/Schedule/Schedule.h).
//
//===----------------------------------------------------------------------===//

#ifndef PP_DIALECT_PP_TRANSFORMS_PASSES_H
#define PP_DIALECT_PP_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

#include <string>
#include <vector>

namespace mlir::pp {

#define GEN_PASS_DECL
#include "pp/Dialect/PP/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "pp/Dialect/PP/Transforms/Passes.h.inc"

/// Options of the `pp-plan` pipeline.
struct PlanPipelineOptions {
  /// A name buildSchedule() knows, or file:PATH (pp-schedule).
  std::string schedule;
  /// Micro-batches per training step M (>= 1).
  int64_t numMicrobatches = 0;
  /// interleaved-1f1b: micro-batches per group (0: P).
  int64_t groupSize = 0;
  /// Activation memory per rank, bytes or kM_B; empty: no limit.
  std::string memoryLimit;
  /// auto: "step-makespan" or "max-rank-span"; the exact solver's time
  /// limit, seconds.
  std::string autoObjective = "step-makespan";
  double solverTimeLimit = 1.0;
  /// How a split backward counts memory: "hold" or "convert"
  /// (sched::StashAccounting).
  std::string stashAccounting = "convert";
  /// The schedule's form: "ssa", "compact" or "auto" (pp-schedule's `form`).
  std::string form = "auto";
  /// Data-parallel replicas D (>= 1); with D > 1 each stage's gradient
  /// all-reduce is placed (pp-insert-allreduce's replicas, gradient-bytes,
  /// bucket-bytes and at-end, which pp-plan takes under the same names).
  int64_t replicas = 1;
  std::vector<int64_t> gradientBytes;
  int64_t allReduceBucketBytes = 0;
  bool allReduceAtEnd = false;
};

/// Adds `pp-plan`: pp-schedule{communicate} (which places the messages of
/// the schedules it builds), pp-insert-communication (for compute-only
/// schedules already in the input), with replicas pp-insert-allreduce, and
/// pp-verify-schedule (which then proves the replicas deadlock-free too).
void buildPlanPipeline(OpPassManager &pm, const PlanPipelineOptions &options);

/// Registers the pass pipelines on pp ops: `pp-plan{schedule=...
/// num-microbatches=...}` (buildPlanPipeline).
void registerPPPipelines();

} // namespace mlir::pp

#endif // PP_DIALECT_PP_TRANSFORMS_PASSES_H
