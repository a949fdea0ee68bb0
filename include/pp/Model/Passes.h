//===- Passes.h - passes on the model ---------------------------*- C++ -*-===//
//
// Passes on the model function (linalg, tensor, arith, math, func; TOSA
// first lowered by pp-prepare-model): instrumentation removal, parameter
// lifting, losses, normalization, the differentiability check, reverse-mode
// autodiff, the partition into stages, the B/W split and the stage
// functions (docs/ModelConventions.md, docs/Passes/ModelPasses.md).
//
//===----------------------------------------------------------------------===//

#ifndef PP_MODEL_PASSES_H
#define PP_MODEL_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::pp {

#define GEN_PASS_DECL
#include "pp/Model/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "pp/Model/Passes.h.inc"

/// Adds the upstream conversion of TOSA to linalg, arith and tensor (nested
/// on functions: tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith,
/// tosa-to-tensor). The one list of these passes: pp-prepare-model and the
/// JIT (lib/Execution) both use it.
void buildTosaToLinalgPipeline(OpPassManager &pm);

/// Adds `pp-prepare-model`: brings a model (TOSA, or linalg with private
/// helper functions and named ops) to the form pp-autodiff differentiates:
/// buildTosaToLinalgPipeline, inline, elementwise ops to linalg,
/// pp-normalize-linalg, canonicalize, cse; between pp-save-split-points and
/// pp-restore-split-points, so that pp.split_point markers survive.
void buildPrepareModelPipeline(OpPassManager &pm);

/// Registers the model pipelines (`pp-prepare-model`).
void registerPPModelPipelines();

} // namespace mlir::pp

#endif // PP_MODEL_PASSES_H
