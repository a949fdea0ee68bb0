//===- GemmToRuntime.h - contractions to GEMM calls -------------*- C++ -*-===//
//
// The lowering behind pp-gemm-to-runtime, for the pipelines that embed it:
// the CPU JIT (OpenBLAS) and pp-lower-stages-to-gpu (cuBLAS) share it.
//
//===----------------------------------------------------------------------===//

#ifndef PP_CONVERSION_GEMMTORUNTIME_H
#define PP_CONVERSION_GEMMTORUNTIME_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::pp {

/// Which runtime GEMM the calls go to.
enum class GemmTarget {
  CPU, ///< pprt_cpu_gemm_f32/_f64 (runtime/include/pprt/pprt.h): OpenBLAS
  GPU, ///< pprt_gpu_gemm_f32/_f64 (runtime/include/pprt/Cuda.h): cuBLAS
};

/// Marks the runtime functions pp-gemm-to-runtime{target=gpu} declares:
/// they run on the rank's compute stream, so pp-gpu-elide-host-waits needs
/// no host wait before them.
constexpr llvm::StringLiteral kStreamOrderedAttrName = "pp.stream_ordered";

/// Whether `op` has the form of a GEMM the runtime takes (a contraction
/// with m, n and k dimensions, at most one batch dimension, two inputs and
/// one output, all f32 or all f64), judged on its indexing maps and element
/// types only: on tensors, before bufferization decides the layouts. The
/// CPU lowering leaves these ops untiled for pp-gemm-to-runtime.
bool isGemmCandidate(linalg::LinalgOp op);

/// Rewrites every contraction on buffers under `root` (not inside a
/// gpu.module) into a call to `target`'s GEMM, or leaves it, with a remark
/// saying why not when `explain` (pp-gemm-to-runtime).
void lowerGemmsToRuntime(Operation *root, GemmTarget target,
                         bool explain = true);

} // namespace mlir::pp

#endif // PP_CONVERSION_GEMMTORUNTIME_H
