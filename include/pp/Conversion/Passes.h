//===- Passes.h - conversions of pp IR to code ------------------*- C++ -*-===//
//
// `convert-pp-to-runtime`: every rank of a pp.schedule becomes a function
// that calls the stage functions and the runtime (docs/Runtime.md).
//
//===----------------------------------------------------------------------===//

#ifndef PP_CONVERSION_PASSES_H
#define PP_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::pp {

#define GEN_PASS_DECL
#include "pp/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "pp/Conversion/Passes.h.inc"

} // namespace mlir::pp

#endif // PP_CONVERSION_PASSES_H
