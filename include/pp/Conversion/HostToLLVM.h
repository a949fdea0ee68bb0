//===- HostToLLVM.h - host code after bufferization, to LLVM ----*- C++ -*-===//
//
// The lowering steps the CPU JIT (pp/Execution/Jit.h) and the GPU pipelines
// (pp/GPU/Passes.h) share once stage functions are on buffers.
//
//===----------------------------------------------------------------------===//

#ifndef PP_CONVERSION_HOSTTOLLVM_H
#define PP_CONVERSION_HOSTTOLLVM_H

namespace mlir {
class OpPassManager;
class Operation;
} // namespace mlir

namespace mlir::pp {

/// Makes every tensor a function under `root` returns more than once a
/// distinct value after its first occurrence (a linalg.copy into a new
/// tensor): upstream's buffer-results-to-out-params crashes on a buffer
/// returned twice.
void makeResultsDistinct(Operation *root);

/// Adds what follows bufferization on both the CPU and the GPU path:
/// buffer-results-to-out-params{hoist-static-allocs modify-public-functions}
/// (memref results become out-parameters the caller allocates, so every
/// buffer is freed in the function that allocates it),
/// buffer-deallocation-pipeline, convert-bufferization-to-memref.
void buildOutParamsAndDeallocationPipeline(OpPassManager &pm);

/// Adds the lowering to the LLVM dialect that host code takes after its
/// loops are scf/affine (the CPU JIT, and pp-lower-gpu-host-to-llvm):
/// convert-scf-to-cf, expand-strided-metadata, lower-affine, arith-expand,
/// convert-math-to-{llvm,libm}, [convert-vector-to-llvm],
/// finalize-memref-to-llvm, [gpu-to-llvm],
/// convert-{arith,index,cf,ub,func}-to-llvm, reconcile-unrealized-casts.
void buildHostToLLVMPipeline(OpPassManager &pm, bool vectors, bool gpu);

} // namespace mlir::pp

#endif // PP_CONVERSION_HOSTTOLLVM_H
