//===- RecomputeSearch.h - --recompute=auto (internal) ----------*- C++ -*-===//

#ifndef PP_LIB_DRIVER_RECOMPUTESEARCH_H
#define PP_LIB_DRIVER_RECOMPUTESEARCH_H

#include "pp/Driver/Driver.h"

#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/Pass.h"

#include <array>
#include <functional>
#include <memory>

namespace mlir::pp::driver {

/// What --recompute=auto searches from.
struct RecomputeRequest {
  /// The model partitioned at `cuts` and placed (not differentiated).
  ModuleOp module;
  std::string pipelineName;
  /// The cut of `module` (pp-partition's numbering of the loss function's
  /// work ops), and how many work ops there are. numWorkOps == 0: the cut
  /// is fixed (--cuts, pp.split_point markers), only it is searched.
  std::vector<int64_t> cuts;
  int64_t numWorkOps = 0;
  /// A copy of the model partitioned at other cuts and placed as `module`
  /// is; needed when numWorkOps > 0.
  std::function<llvm::Expected<OwningOpRef<ModuleOp>>(ArrayRef<int64_t>)>
      partitionAt;
  /// pp-differentiate-stages for a choice list ("none", "full,none", ...).
  std::function<std::unique_ptr<Pass>(StringRef)> differentiate;
  /// With --plan-costs=measured: each stage's measured F, B and W without
  /// recomputation (microseconds). Empty: the FLOP costs.
  std::vector<std::array<double, 3>> measuredCosts;
};

/// What --recompute=auto chose.
struct RecomputeChoice {
  /// For pp-differentiate-stages recompute=: one choice per stage.
  std::string recompute;
  /// The cut (equal to RecomputeRequest::cuts when it is kept).
  std::vector<int64_t> cuts;
  /// The schedule: options.schedule, or with the schedule `auto` the
  /// schedule (named, or auto's own plan) that won.
  std::string schedule;
  /// The memory limit in bytes (a multiple of M_B is of the stashes
  /// without recomputation at the partitioner's cut: the schedule must be
  /// planned under these bytes, not under the smaller M_B recomputation
  /// leaves).
  int64_t limitBytes = 0;
  /// With RecomputeRequest::measuredCosts: each stage's F, B and W under
  /// the choice (measuredWithRecompute()).
  std::vector<std::array<double, 3>> stageCosts;
};

/// Each stage's costs under the recomputation `choice` (a choice list for
/// pp-differentiate-stages) from its measured costs without it: F as
/// measured, and B and W each plus the FLOPs the recomputation adds to
/// them (pp-differentiate-stages under `choice` against under "none")
/// timed at the stage's measured F rate (its measured F time over its F
/// FLOPs): the recomputed ops are F's ops, run again. Microseconds.
llvm::Expected<std::vector<std::array<double, 3>>>
measuredWithRecompute(const RecomputeRequest &request, StringRef choice,
                      const CompileOptions &options);

/// --recompute=auto (docs/Recompute.md, "The planner's choice"): the cut,
/// schedule and per-stage recomputation (none, selective or full) with the
/// shortest predicted step (sched::simulate under the FLOP costs of the
/// differentiated stages) whose activation peak on every rank is within
/// options.memoryLimit.
///
/// The search space: the partitioner's cut and every cut that moves each
/// of its boundaries by at most one work op (3^(S-1) cuts, fewer at the
/// ends, while that is at most 243; beyond, the cuts that move one
/// boundary alone; the cut alone when it is fixed); options.schedule, or with
/// `auto` every schedule buildSchedule() can make for the placement and
/// auto's own plan; every per-stage choice (3^S) while the whole space
/// stays within 20000 simulations, else the three uniform choices per cut.
/// Each stage's costs and stash are those pp-differentiate-stages gives
/// (with measured costs, adjusted as measuredWithRecompute() does; the cut
/// is then the measured plan's, fixed):
/// each stage range is differentiated once per choice (about 9 partitions
/// of the model x 3 choices cover every range). The result is optimal
/// within that space under the simulator's costs; the plan notes say so,
/// give a lower bound on any plan of the space (the busiest rank's work,
/// M x sum of F + B + W of its stages, minimised over cuts and choices,
/// memory ignored) and the gap to it, and per stage what is recomputed,
/// the stash it saves and the time it adds.
///
/// Errors: no limit; no schedule of that name for any candidate; no plan
/// within the limit (saying by how much, and the smallest peak any plan
/// reaches); a partition or differentiation that fails.
llvm::Expected<RecomputeChoice> chooseRecompute(const RecomputeRequest &request,
                                                const CompileOptions &options,
                                                CompiledModel &model);

} // namespace mlir::pp::driver

#endif // PP_LIB_DRIVER_RECOMPUTESEARCH_H
