//===- Precision.h - compile a model at bf16 (internal) ---------*- C++ -*-===//

#ifndef PP_LIB_DRIVER_PRECISION_H
#define PP_LIB_DRIVER_PRECISION_H

#include "pp/Driver/Driver.h"

namespace mlir::pp::driver {

/// CompileOptions::precision on the lowered module: nothing at F32; at
/// BF16 keeps an f32 copy of the reference (model.f32ReferenceName) and
/// runs pp-round-to-bf16 on everything else. Errors: a contraction that
/// cannot take bf16 inputs (diagnosed at the op).
llvm::Error applyPrecision(ModuleOp module, const CompileOptions &options,
                           CompiledModel &model);

} // namespace mlir::pp::driver

#endif // PP_LIB_DRIVER_PRECISION_H
