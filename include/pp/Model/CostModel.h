//===- CostModel.h - FLOPs and bytes of ops on tensors ----------*- C++ -*-===//
//
// The cost model pp-partition balances stages with, also used by
// pp-differentiate-stages (stage costs) and pp-exec (GFLOP/s).
//
//===----------------------------------------------------------------------===//

#ifndef PP_MODEL_COSTMODEL_H
#define PP_MODEL_COSTMODEL_H

#include "mlir/IR/Operation.h"

namespace mlir::pp {

/// Bytes of a statically shaped int or float tensor; 0 for anything else.
int64_t bytesOf(Type type);

/// FLOPs of one op: for a linalg op, the product of its static loop ranges
/// (dynamic ones count as 1) times the number of arithmetic ops in its body
/// (at least one); 0 for any other op.
double flopsOf(Operation *op);

} // namespace mlir::pp

#endif // PP_MODEL_COSTMODEL_H
