//===- InitAllPasses.h - every pp-mlir pass and pipeline --------*- C++ -*-===//
//
// For tools that offer every pass (pp-opt, the mlir-opt plugin). A stack
// that needs one family includes that family's Passes.h and links only its
// library: pp/Dialect/PP/Transforms (PPTransforms), pp/Model (PPModel),
// pp/Conversion (PPConversion), pp/GPU (PPGPU, which links LLVM's NVPTX back
// end).
//
//===----------------------------------------------------------------------===//

#ifndef PP_INITALLPASSES_H
#define PP_INITALLPASSES_H

#include "pp/Conversion/Passes.h"
#include "pp/Dialect/PP/Transforms/Passes.h"
#include "pp/GPU/Passes.h"
#include "pp/Model/Passes.h"

namespace mlir::pp {

/// Registers every pp pass and pipeline.
inline void registerAllPPPasses() {
  registerPPPasses();
  registerPPPipelines();
  registerPPModelPasses();
  registerPPModelPipelines();
  registerPPConversionPasses();
  registerPPGPUPasses();
  registerLowerStagesToGPUPipeline();
}

} // namespace mlir::pp

#endif // PP_INITALLPASSES_H
