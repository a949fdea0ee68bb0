//===- PrepareModel.h - model normalization shared by pp passes -*- C++ -*-===//
//
// The normalization `pp-normalize-linalg` applies (part of the
// `pp-prepare-model` pipeline), shared with `pp-autodiff`, which applies it
// on the fly to the function it differentiates.
//
//===----------------------------------------------------------------------===//

#ifndef PP_LIB_DIALECT_PP_TRANSFORMS_PREPAREMODEL_H
#define PP_LIB_DIALECT_PP_TRANSFORMS_PREPAREMODEL_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"

#include <string>

namespace mlir::pp {

struct NormalizeLinalgOptions {
  /// Also turn elementwise arith/math ops on tensors into linalg.generic.
  bool elementwiseToLinalg = false;
  /// Generalize convolutions and pooling too (their names are lost).
  bool generalizeConvolutions = false;
  /// When set, records for every linalg.generic made from a named op the
  /// name of that op (for diagnostics).
  llvm::DenseMap<Operation *, std::string> *originalNames = nullptr;
};

/// Decomposes aggregated linalg ops (linalg.softmax) and turns named
/// structured linalg ops under `root` into linalg.generic. Reports failures
/// at the op and returns failure.
LogicalResult normalizeLinalg(Operation *root,
                              const NormalizeLinalgOptions &options);

/// Whether `map` indexes an operand of type `type` by distinct loop
/// dimensions (a projected permutation), except that unit dimensions may be
/// indexed by the constant 0 (the broadcasts TOSA lowers to): the operands
/// pp-autodiff can write an adjoint for. Shared with pp-check-differentiable.
bool isProjectedPermutationOrUnit(AffineMap map, Type type);

} // namespace mlir::pp

#endif // PP_LIB_DIALECT_PP_TRANSFORMS_PREPAREMODEL_H
