//===- Pipelines.h - pieces of the pass pipelines (internal) ----*- C++ -*-===//
//
// The pieces of steps 2-4 that compileModel() runs apart from the public
// pipelines of Driver.h (Pipelines.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef PP_LIB_DRIVER_PIPELINES_H
#define PP_LIB_DRIVER_PIPELINES_H

#include "pp/Dialect/PP/Transforms/Passes.h"
#include "pp/Driver/Driver.h"

#include "mlir/Pass/Pass.h"

#include <memory>
#include <string>

namespace mlir::pp::driver {

/// Adds pp-place-stages (loop placement for V > 1, v for the V-shaped
/// schedules); nothing for one stage per rank.
void addPlacement(OpPassManager &pm, const CompileOptions &options);

/// pp-plan's options from the compile options (the exact solver off with
/// CompileOptions::sharePlan).
PlanPipelineOptions planOptions(const CompileOptions &options);

/// pp-differentiate-stages with recomputation `recompute` (one choice, or
/// one per stage, as the pass's option takes it).
std::unique_ptr<Pass> differentiateStages(llvm::StringRef recompute);

/// "ops 0..4 | 5..9 | 10..end" for the cuts {4, 9}: the work ops of every
/// stage (pp-partition's numbering).
std::string describeStages(llvm::ArrayRef<int64_t> cuts);

} // namespace mlir::pp::driver

#endif // PP_LIB_DRIVER_PIPELINES_H
