//===- GradientBytes.h - bytes of each stage's all-reduce -------*- C++ -*-===//
//
// What pp-insert-allreduce and pp-compare-schedules charge a stage's
// gradient all-reduce: the bytes of its parameters.
//
//===----------------------------------------------------------------------===//

#ifndef PP_DIALECT_PP_TRANSFORMS_GRADIENTBYTES_H
#define PP_DIALECT_PP_TRANSFORMS_GRADIENTBYTES_H

#include "pp/Dialect/PP/IR/PPOps.h"

#include "mlir/IR/BuiltinOps.h"

#include <vector>

namespace mlir::pp {

/// The bytes of each stage's parameter gradients (one entry per stage, by
/// stage index), from a pass's `gradient-bytes` option when it is given:
/// one entry per stage, or one for every stage. Otherwise from the
/// stages' functions: the statically shaped tensors the stage's backward
/// (or B) function takes as `pp.parameter` arguments. Errors, emitted at
/// the module or the pipeline or the stage: a negative entry, a count that
/// is neither 1 nor the number of stages, and an abstract stage (no such
/// function) without the option.
FailureOr<std::vector<int64_t>>
getStageGradientBytes(ModuleOp module, PipelineOp pipeline,
                      ArrayRef<int64_t> gradientBytes);

} // namespace mlir::pp

#endif // PP_DIALECT_PP_TRANSFORMS_GRADIENTBYTES_H
