//===- GemmLike.h - which linalg ops are GEMMs (internal) -------*- C++ -*-===//
//
// The expensive ops of a model as bf16 (pp-round-to-bf16) and selective
// recomputation (pp-differentiate-stages recompute=selective) single them
// out: contractions and convolutions that multiply their two inputs and
// add the products. linalg's convolution matcher looks at indexing maps
// only, so pooling (a max or a sum over a window, no product) matches it
// too; the body test leaves pooling out.
//
//===----------------------------------------------------------------------===//

#ifndef PP_LIB_MODEL_GEMMLIKE_H
#define PP_LIB_MODEL_GEMMLIKE_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

namespace mlir::pp {

/// Whether `op` is a contraction or convolution whose body multiplies.
inline bool isGemmLike(linalg::LinalgOp op) {
  if (!linalg::isaContractionOpInterface(op) &&
      !linalg::isaConvolutionOpInterface(op))
    return false;
  Block *body = op.getBlock();
  return body && llvm::any_of(body->getOperations(), [](Operation &inner) {
           return isa<arith::MulFOp, arith::MulIOp>(inner);
         });
}

} // namespace mlir::pp

#endif // PP_LIB_MODEL_GEMMLIKE_H
