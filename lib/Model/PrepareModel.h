//===- PrepareModel.h - model normalization shared by pp passes -*- C++ -*-===//
//
// The normalization `pp-normalize-linalg` applies (part of the
// `pp-prepare-model` pipeline), shared with `pp-autodiff`, which applies it
// on the fly to the function it differentiates.
//
//===----------------------------------------------------------------------===//

#ifndef PP_LIB_MODEL_PREPAREMODEL_H
#define PP_LIB_MODEL_PREPAREMODEL_H

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
/// whose adjoint pp-autodiff writes directly at their map.
bool isProjectedPermutationOrUnit(AffineMap map, Type type);

/// One result of an indexing map as an affine sum of loop dimensions,
/// `constant + sum(coefficient * d<dim>)`, as in the window
/// `d1 * 2 + d4 * 3` of a convolution with stride 2 and dilation 3.
struct WindowIndex {
  /// (loop dimension, coefficient >= 1), in the order of the expression.
  llvm::SmallVector<std::pair<unsigned, int64_t>> terms;
  /// The constant offset (>= 0).
  int64_t constant = 0;
};

/// Decomposes `map`, the indexing map of an operand of type `type`, into one
/// WindowIndex per result when pp-autodiff can differentiate with respect to
/// that operand: every result is a non-negative constant plus loop
/// dimensions multiplied by positive constants (a projected permutation,
/// the sliding windows of convolutions and pooling with strides and
/// dilations), no loop dimension appears twice in the map, and a result
/// without dimensions (a constant) lies within a static dimension.
/// Otherwise fails, and sets `*reason` (when given) to what breaks these
/// rules ("result #1 (d1 floordiv 2) uses 'floordiv'").
/// Shared by pp-autodiff and pp-check-differentiable.
FailureOr<llvm::SmallVector<WindowIndex>>
decomposeWindowMap(AffineMap map, Type type, std::string *reason = nullptr);

/// What the indexing maps pp-autodiff supports are, for diagnostics.
extern const char *const kSupportedIndexingMaps;

} // namespace mlir::pp

#endif // PP_LIB_MODEL_PREPAREMODEL_H
