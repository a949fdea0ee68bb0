//===- CostModel.h - FLOPs and bytes of ops on tensors ----------*- C++ -*-===//
//
// The cost model pp-partition balances stages with, also used by
// pp-differentiate-stages (stage costs) and pp-exec (GFLOP/s).
//
//===----------------------------------------------------------------------===//

#ifndef PP_MODEL_COSTMODEL_H
#define PP_MODEL_COSTMODEL_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::pp {

/// Bytes of a statically shaped int or float tensor; 0 for anything else.
int64_t bytesOf(Type type);

/// FLOPs of one op: for a linalg op, the product of its static loop ranges
/// (dynamic ones count as 1) times the number of arithmetic ops in its body
/// (at least one); 0 for any other op.
double flopsOf(Operation *op);

/// FLOPs per output element of a contraction or convolution (a GEMM-like
/// linalg op: matmuls, batch matmuls, the transposed generics pp-autodiff
/// writes, convolutions) with static result shapes: its arithmetic
/// intensity as activation recomputation sees it, the work to remake one
/// element of its output against that element's bytes in the stash
/// (pp-differentiate-stages recompute=selective:N). std::nullopt for any
/// other op.
std::optional<double> recomputeIntensity(Operation *op);

/// Parses a recomputation choice of pp-differentiate-stages (and
/// pp-run's --recompute): none, full, selective, or selective:N (N >= 0,
/// the FLOPs per output element up to which contractions and convolutions
/// are recomputed too). Sets `threshold` to N, -1 for the others.
bool parseRecomputeChoice(llvm::StringRef choice, double &threshold);

/// The distinct recomputeIntensity() values of the ops in `module`'s
/// functions, ascending: the thresholds N at which selective:N recomputes
/// one more class of contractions.
llvm::SmallVector<double> recomputeIntensities(Operation *module);

} // namespace mlir::pp

#endif // PP_MODEL_COSTMODEL_H
