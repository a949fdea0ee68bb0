//===- StageFunctions.h -----------------------------------------*- C++ -*-===//
//
// Gradients and B/W splits shared by passes.
//
// The transformations behind `pp-autodiff` and `pp-split-backward`, shared
// with `pp-differentiate-stages`, which applies both to every stage of a
// pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef PP_LIB_MODEL_STAGEFUNCTIONS_H
#define PP_LIB_MODEL_STAGEFUNCTIONS_H

#include "pp/Model/CostModel.h"
#include "pp/Support/Diagnostics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SetVector.h"

#include <optional>
#include <string>

namespace mlir::pp {

/// Creates `gradName` (inserted after `func` in its module): the reverse-mode
/// gradient of `func` with respect to the arguments `wrt` (increasing
/// indices, each a float or statically shaped float tensor).
///
/// Without `seeded`, `func` returns one scalar loss; the gradient function
/// takes the same arguments and returns (loss, d loss / d arg for each `wrt`).
/// With `seeded` (result indices), the gradient function takes, after the
/// original arguments, one cotangent per listed result (same type as the
/// result) and returns (every result of `func`, then for each `wrt` argument
/// the vector-Jacobian product sum_r cotangent_r . d result_r / d arg).
///
/// Errors (reported at the offending op, nothing created): calls and side
/// effects, ops without a derivative rule, dynamic shapes (docs/Autodiff.md).
FailureOr<func::FuncOp> buildGradient(func::FuncOp func, StringRef gradName,
                                      ArrayRef<unsigned> wrt,
                                      std::optional<ArrayRef<unsigned>> seeded);

/// Top-level ops of `block` that `roots` depend on (through operands, and
/// values used inside their regions), in block order.
llvm::SetVector<Operation *> sliceOf(Block &block, ArrayRef<Value> roots);

/// Creates, at `builder`'s insertion point, `func.func @name(args) ->
/// results` whose body clones `ops` (in order) with `args` (values of the
/// block `ops` live in, each becoming an argument of the same type) mapped
/// to the new arguments. Every value `ops` and `results` use must be in
/// `args` or made by `ops`.
func::FuncOp outlineOps(OpBuilder &builder, Location loc, StringRef name,
                        ArrayRef<Value> args, ArrayRef<Operation *> ops,
                        ArrayRef<Value> results);

/// A zero of `type`: a float scalar, or a tensor filled with zeros.
Value zeros(OpBuilder &b, Location loc, Type type);

/// lhs + rhs for float scalars, or elementwise (a linalg.generic) for
/// tensors of one type.
Value addValues(OpBuilder &b, Location loc, Value lhs, Value rhs);

/// acc + value for float tensors of one type, elementwise, computed into
/// `acc` (the linalg.generic's init, so that bufferization can add in
/// place): element for element what addValues(acc, value) gives.
Value addValuesInto(OpBuilder &b, Location loc, Value acc, Value value);

/// Values that carry gradients: float scalars and ranked float tensors.
bool isDifferentiableType(Type type);

/// Whether `type` is a scalar loss: a float, or a float tensor of static
/// shape with one element.
bool isScalarLoss(Type type);

/// The seed of the reverse sweep from a loss of type `type`: a one of that
/// type (a float constant, or a dense tensor constant of ones).
Value lossSeed(OpBuilder &b, Location loc, Type type);

/// B and W made from one backward function, and the function calling them.
struct BackwardSplit {
  func::FuncOp input, weight, composed;
};

/// Splits the backward function `fn` (one block; returns `numInput` input
/// gradients, then parameter gradients) into `inputName` (B: same arguments;
/// returns the input gradients, then the weight stash) and `weightName` (W:
/// takes the weight stash, then the arguments of `fn` it uses, listed in its
/// `pp.weight_arguments` attribute; returns the parameter gradients), and
/// `composedName` (B then W, same type as `fn`). Every op of `fn` that a
/// gradient needs is cloned into exactly one of B and W, so the composition
/// computes exactly what `fn` computes. Qi et al., "Zero Bubble Pipeline
/// Parallelism", ICLR 2024, sec. 2.
FailureOr<BackwardSplit> splitBackward(func::FuncOp fn, unsigned numInput,
                                       StringRef inputName,
                                       StringRef weightName,
                                       StringRef composedName);

} // namespace mlir::pp

#endif // PP_LIB_MODEL_STAGEFUNCTIONS_H
