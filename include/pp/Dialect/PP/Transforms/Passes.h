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

/// Registers every pp pass and pipeline.
inline void registerAllPPPasses() {
  registerPPPasses();
  registerPPPipelines();
}

} // namespace mlir::pp

#endif // PP_DIALECT_PP_TRANSFORMS_PASSES_H
