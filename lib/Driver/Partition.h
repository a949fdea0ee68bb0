//===- Partition.h - step 2: cut the prepared model (internal) --*- C++ -*-===//

#ifndef PP_LIB_DRIVER_PARTITION_H
#define PP_LIB_DRIVER_PARTITION_H

#include "pp/Driver/Driver.h"

#include "mlir/IR/OwningOpRef.h"

#include <array>
#include <vector>

namespace mlir::pp::driver {

/// Step 2 as compileModel() runs it on a prepared `module`. With measured
/// costs (options.planCosts Measured, or Auto where
/// options.measurable) the unit costs (cached, or measured) are cut by
/// planStages() and marked as pp.split_point before pp-partition, the
/// large ops tried split; with options.sharePlan only the leader
/// measures, and calls sharePlan once with the plan (or "error <why>"),
/// the others once with "" to receive it, so every process cuts alike.
/// With FLOP estimates (Flops, or Auto on a GPU, which splits the
/// large ops) pp-partition balances FLOPs. Either way the plan is checked
/// for near-empty stages. Fills model.planNotes, planWarnings,
/// model.planCosts (the costs used) and, for measured costs, `stageCosts`
/// (per stage, for setStageCosts()). With `beforeCut`, it receives a copy
/// of the module just before pp-partition when the partitioner chose the
/// cut by FLOPs (null when the cut is fixed or measured): what
/// --recompute=auto partitions at other cuts.
llvm::Error partitionModel(ModuleOp module, const CompileOptions &options,
                           CompiledModel &model, Progress &progress,
                           std::vector<std::array<double, 3>> &stageCosts,
                           OwningOpRef<ModuleOp> *beforeCut = nullptr);

} // namespace mlir::pp::driver

#endif // PP_LIB_DRIVER_PARTITION_H
