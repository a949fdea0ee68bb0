//===- RecomputePlan.h - --recompute=auto (internal) -------------*- C++ -*-===//

#ifndef PP_LIB_DRIVER_RECOMPUTEPLAN_H
#define PP_LIB_DRIVER_RECOMPUTEPLAN_H

#include "pp/Driver/Driver.h"

#include "mlir/Pass/Pass.h"

#include <functional>
#include <memory>

namespace mlir::pp::driver {

/// --recompute=auto: the per-stage recomputation (none, selective or full)
/// of the partitioned and placed pipeline in `module` whose schedule
/// (options.schedule, M micro-batches) has the shortest predicted step
/// (sched::simulate) with every rank's activation peak within
/// options.memoryLimit. Every stage is differentiated once per choice on a
/// copy of the module (`differentiate` makes the pass for a choice list)
/// to get its costs and stash sizes; then every combination is simulated
/// (3^S of them for S <= 8 stages; above, or with the schedule `auto`, the
/// three uniform choices). Returns the choice list for
/// pp-differentiate-stages ("none,full,...") and adds to model.planNotes
/// per stage what is recomputed, the stash it saves and the time it adds,
/// and whether the choice is the best of all combinations; `limitBytes`
/// gets the limit in bytes (a multiple of M_B is of the stashes without
/// recomputation, and the schedule must be planned under these bytes, not
/// under the smaller M_B that recomputation leaves). Errors: no limit, no
/// schedule of that name for the pipeline, no choice within the limit
/// (saying by how much, and the smallest peak any choice reaches).
llvm::Expected<std::string> chooseRecompute(
    ModuleOp module, StringRef pipelineName, const CompileOptions &options,
    const std::function<std::unique_ptr<Pass>(StringRef)> &differentiate,
    CompiledModel &model, int64_t &limitBytes);

} // namespace mlir::pp::driver

#endif // PP_LIB_DRIVER_RECOMPUTEPLAN_H
