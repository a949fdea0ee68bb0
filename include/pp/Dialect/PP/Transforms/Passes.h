//===- Passes.h - pp dialect passes -----------------------------*- C++ -*-===//

#ifndef PP_DIALECT_PP_TRANSFORMS_PASSES_H
#define PP_DIALECT_PP_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::pp {

#define GEN_PASS_DECL
#include "pp/Dialect/PP/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "pp/Dialect/PP/Transforms/Passes.h.inc"

/// Registers the pp pass pipelines (see docs/Passes.md):
/// `pp-plan{schedule=... num-microbatches=...}` runs pp-schedule,
/// pp-insert-communication and pp-verify-schedule.
void registerPPPipelines();

/// Registers `pp-lower-stages-to-gpu{chip=sm_90 ...}` (docs/GPU.md). A tool
/// that runs it also needs the GPU/NVVM dialects' LLVM IR translations and
/// the NVVM target attribute's serialization registered in its context.
void registerLowerStagesToGPUPipeline();

/// Registers in `registry` what pp-lower-stages-to-gpu and
/// pp-lower-gpu-host-to-llvm need beyond the passes' own dependent dialects:
/// bufferization models, the to-LLVM conversion interfaces, the LLVM IR
/// translations of the builtin, LLVM, GPU and NVVM dialects and the NVVM
/// target's serialization. A tool that runs the GPU pipelines, or
/// JIT-compiles their output, calls it before creating its context.
void registerGPULoweringDependencies(DialectRegistry &registry);

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
/// loops are scf/affine (pp-exec's and pp-run's CPU lowering, and
/// pp-lower-gpu-host-to-llvm): convert-scf-to-cf, expand-strided-metadata,
/// lower-affine, arith-expand, convert-math-to-{llvm,libm},
/// [convert-vector-to-llvm], finalize-memref-to-llvm, [gpu-to-llvm],
/// convert-{arith,index,cf,ub,func}-to-llvm, reconcile-unrealized-casts.
void buildHostToLLVMPipeline(OpPassManager &pm, bool vectors, bool gpu);

/// Registers every pp pass and pipeline.
inline void registerAllPPPasses() {
  registerPPPasses();
  registerPPPipelines();
}

} // namespace mlir::pp

#endif // PP_DIALECT_PP_TRANSFORMS_PASSES_H
