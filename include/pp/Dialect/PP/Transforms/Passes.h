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

/// Registers every pp pass and pipeline.
inline void registerAllPPPasses() {
  registerPPPasses();
  registerPPPipelines();
}

} // namespace mlir::pp

#endif // PP_DIALECT_PP_TRANSFORMS_PASSES_H
