//===- GemmToRuntime.h - contractions to GEMM calls -------------*- C++ -*-===//
//
// The lowerings behind pp-im2col and pp-gemm-to-runtime, for the pipelines
// that embed them: the CPU JIT (OpenBLAS) and pp-lower-stages-to-gpu
// (cuBLAS) share them.
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

/// Set by pp-im2col on the contractions it makes: the loop dimension (an
/// integer) that pp-gemm-to-runtime takes as the GEMM's batch, whatever the
/// buffers' layouts would also allow. The same convolution then maps to the
/// same GEMMs in every function and module (the pipeline's stage functions
/// and the unpipelined reference), so that their results agree bit for bit.
constexpr llvm::StringLiteral kGemmBatchAttrName = "pp.gemm_batch";

/// Whether `op` has the form of a GEMM the runtime takes (a contraction
/// with m, n and k dimensions, at most one batch dimension, two inputs and
/// one output, all f32 or all f64), judged on its indexing maps and element
/// types only: on tensors, before bufferization decides the layouts. The
/// CPU lowering leaves these ops untiled for pp-gemm-to-runtime.
bool isGemmCandidate(linalg::LinalgOp op);

/// Rewrites each convolution-shaped linalg op on tensors under `root`
/// (pp-im2col): a linalg.generic, or a named convolution generalized, whose
/// body multiplies its two inputs and adds the product to its output (f32 or
/// f64, static shapes), where one input is read through a window (results
/// that sum loop dimensions times positive constants, plus a constant, each
/// dimension in one result: `d2 * 2 + d5`) and the other input and the output
/// through projected permutations, and each loop dimension of the window is
/// shared with exactly one of them. That input is copied into im2col's
/// column matrix, indexed by the window's loop dimensions (the batch, the
/// window's first result if a plain dimension, outermost; then those shared
/// with the other input, in its order; then those shared with the output),
/// and the op reads the matrix: a contraction that pp-gemm-to-runtime maps
/// to one GEMM per image. A convolution's forward (NCHW: the matrix is
/// (n, c, kh, kw, oh, ow)) and its weight gradient ((n, oh, ow, c, kh, kw))
/// both have this form; for the GPU, whose batched GEMM cannot accumulate
/// over its batch, only those whose batch the output indexes (the forward).
/// Returns how many ops it rewrote.
unsigned im2col(Operation *root, GemmTarget target);

/// Pins, on every GEMM candidate on tensors under `root`, the batch the GEMM
/// would take with row-major buffers (kGemmBatchAttrName: a loop dimension,
/// or -1 for none beyond the one linalg infers), so that the GEMMs of an op
/// do not depend on the layouts bufferization gives its operands in one
/// function or another: with other layouts the op stays loops (a remark)
/// rather than becoming other GEMMs with other roundings.
void pinGemmBatches(Operation *root, GemmTarget target);

/// Rewrites every contraction on buffers under `root` (not inside a
/// gpu.module) into a call to `target`'s GEMM, or leaves it, with a remark
/// saying why not when `explain` (pp-gemm-to-runtime).
void lowerGemmsToRuntime(Operation *root, GemmTarget target,
                         bool explain = true);

} // namespace mlir::pp

#endif // PP_CONVERSION_GEMMTORUNTIME_H
