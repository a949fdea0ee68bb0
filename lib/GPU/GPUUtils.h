//===- GPUUtils.h - helpers of the pp-gpu-* steps ---------------*- C++ -*-===//

#ifndef PP_LIB_GPU_GPUUTILS_H
#define PP_LIB_GPU_GPUUTILS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::pp {

/// Whether `op` is a contraction cuBLAS can take (pp-gemm-to-runtime
/// decides on buffers; pp-gpu-fuse-elementwise keeps any contraction as it
/// is).
inline bool isContraction(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalg::isaContractionOpInterface(linalgOp);
}

} // namespace mlir::pp

#endif // PP_LIB_GPU_GPUUTILS_H
