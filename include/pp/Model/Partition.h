//===- Partition.h - the units pp-partition cuts between --------*- C++ -*-===//
//
// What pp-partition (lib/Model/Partition.cpp) places in stages, for the
// driver's planners (pp/Driver/StagePlanner.h, the recomputation search)
// and pp-split-ops, which number and cut the same ops.
//
//===----------------------------------------------------------------------===//

#ifndef PP_MODEL_PARTITION_H
#define PP_MODEL_PARTITION_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace mlir::pp {

/// The ops of `func` (one block) that pp-partition places in stages, in
/// block order: every op but the terminator and the rematerialized ones
/// (ops without operands, and ops computing only from parameters, which are
/// cloned into each stage that uses them). Parameters are the arguments
/// marked pp.parameter. Cutting after op k of this list is what a
/// `pp.split_point` on it asks; pp-run's measured planning
/// (pp/Driver/StagePlanner.h) measures one partition unit per op of it.
llvm::SmallVector<Operation *> partitionWorkOps(func::FuncOp func);

} // namespace mlir::pp

#endif // PP_MODEL_PARTITION_H
