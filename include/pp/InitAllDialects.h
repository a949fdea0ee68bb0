//===- InitAllDialects.h - the dialects a model may contain -----*- C++ -*-===//
//
// One set of dialects for every tool that reads models: pp-opt, pp-run,
// pp-exec, pp-translate and the mlir-opt plugin register the same ones, so a
// file one of them parses, the others parse too. Link PPRegistration.
//
//===----------------------------------------------------------------------===//

#ifndef PP_INITALLDIALECTS_H
#define PP_INITALLDIALECTS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::pp {

/// Registers the pp dialect and everything a model may contain: every
/// upstream dialect (among them what code from linalg, TOSA and
/// StableHLO-derived front ends uses: affine, arith, bufferization, cf,
/// complex, func, index, linalg, llvm, math, memref, ml_program, scf, shape,
/// tensor, tosa, vector) with the upstream dialect extensions and external
/// interface models (bufferization, conversion to LLVM, tiling, ...).
/// Translations to LLVM IR and the GPU lowering's registrations are not
/// included: pp/GPU/Passes.h's registerGPULoweringDependencies() adds those.
void registerModelDialects(DialectRegistry &registry);

} // namespace mlir::pp

#endif // PP_INITALLDIALECTS_H
