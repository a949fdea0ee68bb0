//===- Passes.h - the GPU lowering of stage functions -----------*- C++ -*-===//
//
// The pp-gpu-* steps and the pipelines `pp-lower-stages-to-gpu` and
// `pp-lower-gpu-host-to-llvm`, which compile stage functions for NVIDIA
// GPUs: GEMMs to cuBLAS through the runtime, everything else to PTX kernels
// (docs/GPU.md, docs/Passes/GPUPasses.md). This family links LLVM's NVPTX
// back end; the other pass families do not.
//
//===----------------------------------------------------------------------===//

#ifndef PP_GPU_PASSES_H
#define PP_GPU_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::pp {

#define GEN_PASS_DECL
#include "pp/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "pp/GPU/Passes.h.inc"

/// Registers `pp-lower-stages-to-gpu{chip=sm_90 ...}` and
/// `pp-lower-gpu-host-to-llvm` (docs/GPU.md). A tool that runs them also
/// needs registerGPULoweringDependencies() in its context.
void registerLowerStagesToGPUPipeline();

/// Registers in `registry` what pp-lower-stages-to-gpu and
/// pp-lower-gpu-host-to-llvm need beyond the passes' own dependent dialects:
/// bufferization models, the to-LLVM conversion interfaces, the LLVM IR
/// translations of the builtin, LLVM, GPU and NVVM dialects and the NVVM
/// target's serialization. A tool that runs the GPU pipelines, or
/// JIT-compiles their output, calls it before creating its context.
void registerGPULoweringDependencies(DialectRegistry &registry);

} // namespace mlir::pp

#endif // PP_GPU_PASSES_H
