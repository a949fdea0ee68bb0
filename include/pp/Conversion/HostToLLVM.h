//===- HostToLLVM.h - host code after bufferization, to LLVM ----*- C++ -*-===//
//
// The lowering steps the CPU JIT (pp/Execution/Jit.h) and the GPU pipelines
// (pp/GPU/Passes.h) share once stage functions are on buffers.
//
//===----------------------------------------------------------------------===//

#ifndef PP_CONVERSION_HOSTTOLLVM_H
#define PP_CONVERSION_HOSTTOLLVM_H

#include <cstdint>
#include <memory>

namespace mlir {
class OpPassManager;
class Operation;
class Pass;
namespace func {
class FuncOp;
} // namespace func
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
/// Its two halves, for a caller that rewrites the out-parameters in
/// between (the CPU JIT, lib/Execution/CPULowering.cpp): the
/// buffer-results-to-out-params pass, then the deallocation pipeline and
/// convert-bufferization-to-memref.
void buildOutParamsPipeline(OpPassManager &pm);
void buildDeallocationPipeline(OpPassManager &pm);

/// Moves every memref.dealloc to just after the last use of its buffer in
/// the same block (uses in nested regions count at their ancestor in the
/// block; values computed from the buffer by any op other than a call, and
/// their uses, count as uses). The ownership-based deallocation pipeline
/// frees a buffer at the end of the block that owns it, so a rank program
/// (one block) would keep every stash until it returns: 1F1B would hold
/// GPipe's M stashes. Deallocs whose buffer is used in another block stay
/// where they are. Only for code whose calls are synchronous (the CPU):
/// after the last use returns, nothing reads the buffer.
void moveDeallocsToLastUse(Operation *root);

/// Replaces the longest run of `program`'s block that repeats a period of
/// ops at least `minIterations` times (at least 2), the integer constants
/// they take growing by a fixed step per repeat, with an scf.for over the
/// repeats (attribute `pp.rolled`), and again in what is left, up to 8
/// times (pp-roll-rank-programs; docs/Execution.md, "Rank programs").
/// Values a repeat passes to a later one travel through the loop's
/// iteration arguments. For a rank program on buffers after its
/// deallocations are placed: the ops run in the same order on the same
/// buffers. Returns the number of loops made (0 for a function that is
/// not one block).
int64_t rollRankProgram(func::FuncOp program, int64_t minIterations = 3);

/// Adds the lowering to the LLVM dialect that host code takes after its
/// loops are scf/affine (the CPU JIT, and pp-lower-gpu-host-to-llvm):
/// convert-scf-to-cf, expand-strided-metadata, lower-affine, arith-expand,
/// convert-math-to-{llvm,libm}; on the CPU convert-host-to-llvm (every
/// other dialect in one conversion, vector included), on the GPU path
/// finalize-memref-to-llvm, gpu-to-llvm, convert-{arith,index,cf,ub,func}-
/// to-llvm; then reconcile-unrealized-casts.
/// With `genericAllocator`, memref.alloc and memref.dealloc call
/// _mlir_memref_to_llvm_alloc / _aligned_alloc / _free instead of malloc
/// and free (finalize-memref-to-llvm{use-generic-functions}); the CPU JIT
/// binds them to pprt_memory_alloc / _free, which measure each rank's
/// buffers (pprt.h).
void buildHostToLLVMPipeline(OpPassManager &pm, bool gpu,
                             bool genericAllocator = false);

} // namespace mlir::pp

#endif // PP_CONVERSION_HOSTTOLLVM_H
