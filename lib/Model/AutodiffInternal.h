//===- AutodiffInternal.h - pp-autodiff's rule families -------*- C++ -*-===//
//
// What the files of pp-autodiff share (docs/Autodiff.md):
//
//   Autodiff.cpp        the pass, buildGradient and the Differentiator's
//                       driver (activity analysis, checks, reverse sweep)
//   AutodiffScalar.cpp  scalar rules (arith/math), used at the top level and
//                       inside linalg.generic bodies
//   AutodiffLinalg.cpp  linalg.generic (contractions, elementwise ops,
//                       sum/max/min reductions) and linalg.fill
//   AutodiffWindow.cpp  operands read through window maps (convolution and
//                       pooling inputs)
//   AutodiffTensor.cpp  tensor reshapes, casts, slices, pad, concat and
//                       element access
//
// Not a public header: everything here lives in mlir::pp::autodiff.
//
//===----------------------------------------------------------------------===//

#ifndef PP_LIB_MODEL_AUTODIFFINTERNAL_H
#define PP_LIB_MODEL_AUTODIFFINTERNAL_H

#include "PrepareModel.h"
#include "StageFunctions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace mlir::pp::autodiff {

//===----------------------------------------------------------------------===//
// Types and small builders (Autodiff.cpp)
//===----------------------------------------------------------------------===//

/// Whether `type` is a ranked tensor of floats.
bool isFloatTensor(Type type);

/// Whether no operand or result of `op` is shaped: a top-level scalar op.
bool isScalarOp(Operation *op);

/// An arith.constant of the float type `type` with value `v`.
Value floatConstant(OpBuilder &b, Location loc, Type type, double v);

/// `value` printed as in the IR, for diagnostics.
template <typename T> std::string str(T value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << value;
  return text;
}

//===----------------------------------------------------------------------===//
// Scalar rules (AutodiffScalar.cpp)
//===----------------------------------------------------------------------===//

/// Ops with float operands whose results carry no gradient (comparisons,
/// conversions to integers, classification): differentiable with a zero
/// derivative (almost everywhere).
bool isZeroGradientOp(Operation *op);

/// Scalar ops with a reverse-mode rule in differentiateScalarOp.
bool isSupportedScalarOp(Operation *op);

/// The scalar ops isSupportedScalarOp accepts, for diagnostics.
extern const char *const kSupportedScalarOps;

/// How reverse mode over scalar code reports operand adjoints.
struct ScalarReverse {
  OpBuilder &b;
  /// Whether an operand needs an adjoint.
  llvm::function_ref<bool(Value)> isActive;
  /// Adds an adjoint contribution to an operand.
  llvm::function_ref<void(Value, Value)> accumulate;
  /// Values standing for the accumulator of a max/min reduction: ties of
  /// max/min go to the other operand.
  const DenseSet<Value> *accumulators = nullptr;
};

/// Adds to the operands of `op` the contributions of `dz`, the adjoint of
/// its (single) result. Fails for ops without a rule.
LogicalResult differentiateScalarOp(ScalarReverse &rev, Operation *op,
                                    Value dz);

//===----------------------------------------------------------------------===//
// linalg.generic analysis (AutodiffLinalg.cpp)
//===----------------------------------------------------------------------===//

/// How an output of a generic with reduction iterators accumulates.
enum class ReductionKind { None, Sum, Max, Min };

/// How output `j` of a generic with reduction iterators accumulates: a sum
/// when its block argument reaches the yield through arith.addf (either
/// side) and arith.subf (left side) only, each intermediate value used once;
/// a max/min when it is combined once by a max/min op whose result is
/// yielded. `None` otherwise (also when the accumulator is unused).
ReductionKind classifyReduction(linalg::GenericOp generic, unsigned j);

//===----------------------------------------------------------------------===//
// Window maps (AutodiffWindow.cpp)
//===----------------------------------------------------------------------===//

/// The position in the expanded adjoint of each term of `window` (result by
/// result, term by term; `loopRanges` as in foldWindow): first the terms of
/// plain results and the kernel positions of window results (all but each
/// window result's term of the largest range), then the output positions,
/// so that a convolution's NCHW input expands to im2col's (n, c, kh, kw,
/// oh, ow). Where that would reorder the output positions relative to the
/// plain results (NHWC), the terms keep the map's order.
SmallVector<int64_t> windowLayout(ArrayRef<WindowIndex> window,
                                  ArrayRef<int64_t> loopRanges);

/// Folds `expanded`, the adjoint of an operand of type `type` read through
/// the window map `window`, into that operand's shape. `expanded` has one
/// dimension per term of `window`, laid out by windowLayout, whose
/// size is that loop dimension's range in `loopRanges`; element
/// (.., i, k, ..) of it belongs at operand index c + s*i + t*k of a result
/// `c + d_i * s + d_k * t`, and several elements may land on one index (the
/// overlapping windows), so they are summed. Fails if a window reads outside
/// the operand (which the linalg verifier excludes).
FailureOr<Value> foldWindow(OpBuilder &b, Location loc, Value expanded,
                            RankedTensorType type, ArrayRef<WindowIndex> window,
                            ArrayRef<int64_t> loopRanges);

//===----------------------------------------------------------------------===//
// The differentiator
//===----------------------------------------------------------------------===//

/// Appends the reverse sweep to one function (a normalized copy of the
/// function being differentiated). The driver (Autodiff.cpp) analyzes which
/// values are active and useful, checks every op, seeds the results and
/// walks the ops in reverse; the rule families, defined in their own files,
/// turn the adjoints of an op's results into adjoints of its operands
/// through the small interface below (adjointOf, isActive, accumulate).
class Differentiator {
public:
  Differentiator(func::FuncOp func,
                 const DenseMap<Operation *, std::string> &originalNames)
      : func(func), b(func.getContext()), originalNames(originalNames) {}

  /// Checks that every op between the arguments `wrt` and the results can
  /// be differentiated (reporting every one that cannot), then appends the
  /// reverse sweep. Without `seeded`, the one result is a scalar loss seeded
  /// with 1 and the function returns (loss, gradients...). With `seeded`,
  /// one cotangent argument per listed result is appended (in that order)
  /// and seeds that result; the function returns (results..., gradients...).
  LogicalResult run(ArrayRef<unsigned> wrt,
                    std::optional<ArrayRef<unsigned>> seeded);

  //===--------------------------------------------------------------------===//
  // The interface of the rules
  //===--------------------------------------------------------------------===//

  /// The builder of the reverse sweep (inserting before the return).
  OpBuilder &builder() { return b; }
  /// The name of `op` for diagnostics: that of the named op it was
  /// generalized from, if any.
  std::string name(Operation *op) const;
  /// Whether `v` depends on a differentiated argument.
  bool isActive(Value v) const { return active.contains(v); }
  /// The adjoint of `v` so far, or null if it has none.
  Value adjointOf(Value v) const { return adjoints.lookup(v); }
  /// Adds `d` to the adjoint of `v`.
  void accumulate(Value v, Value d);
  /// Adds `d` to the slice (offsets, sizes, strides) of the adjoint of
  /// `v`: the first contribution is written into zeros, later ones are
  /// added to that slice only (a weight read in slices gets one full-size
  /// gradient, not one per slice).
  void accumulateSlice(Value v, Value d, ArrayRef<OpFoldResult> offsets,
                       ArrayRef<OpFoldResult> sizes,
                       ArrayRef<OpFoldResult> strides);
  /// Values used inside the regions of `op` but defined outside.
  static SetVector<Value> captured(Operation *op);
  /// Whether `op` reads an active value, as an operand or inside its
  /// regions.
  bool readsActive(Operation *op) const;

  //===--------------------------------------------------------------------===//
  // Rule families
  //===--------------------------------------------------------------------===//

  /// Reports every part of `generic` that pp-autodiff cannot differentiate:
  /// unsupported indexing maps, outputs that are neither elementwise nor
  /// sum/max/min reductions, and body ops without a scalar rule
  /// (AutodiffLinalg.cpp).
  LogicalResult checkGeneric(linalg::GenericOp generic);
  /// Accumulates the adjoints of the active operands of `generic`, one
  /// adjoint generic per operand (AutodiffLinalg.cpp).
  LogicalResult differentiateGeneric(linalg::GenericOp generic);
  /// Accumulates the adjoint of the value a linalg.fill writes
  /// (AutodiffLinalg.cpp).
  LogicalResult differentiateFill(linalg::FillOp fill);
  /// Accumulates the adjoints of the operands of a tensor-dialect op;
  /// reports an internal error for ops without a rule (AutodiffTensor.cpp).
  LogicalResult differentiateTensorOp(Operation *op);

private:
  func::FuncOp func;
  OpBuilder b;
  const DenseMap<Operation *, std::string> &originalNames;
  /// Values that depend on a differentiated argument.
  DenseSet<Value> active;
  /// Values the loss depends on.
  DenseSet<Value> useful;
  /// Adjoint of each value (the gradient of the loss with respect to it).
  DenseMap<Value, Value> adjoints;

  /// Marks values that depend on the arguments `wrt` (active) and values
  /// the results `roots` depend on (useful).
  void analyze(ArrayRef<unsigned> wrt, ArrayRef<Value> roots);
  /// An op the loss depends on and which depends on the arguments.
  bool needsDerivative(Operation *op);
  /// Reports `op` if it stands between the arguments and the results and
  /// pp-autodiff cannot differentiate it.
  LogicalResult check(Operation *op);
  /// Reports `op` if it has an operand or result of dynamic shape.
  LogicalResult checkStaticShapes(Operation *op);
  /// Dispatches `op` to the rule of its family.
  LogicalResult differentiate(Operation *op);
  /// Seeds the adjoints of the results (1 for a loss, else the cotangents).
  void seed(func::ReturnOp ret, std::optional<ArrayRef<unsigned>> seeded,
            ArrayRef<BlockArgument> cotangents);
  /// Builds the adjoint generic for one operand (`primal`, read in the body
  /// as `bodyValue` through `map`) and accumulates the result
  /// (AutodiffLinalg.cpp).
  LogicalResult adjointForOperand(linalg::GenericOp generic, Value primal,
                                  Value bodyValue, AffineMap map,
                                  ArrayRef<Value> resultAdjoints,
                                  ArrayRef<ReductionKind> kinds);
  /// Builds the adjoint of the tensor that `extract`, in the body of
  /// `generic`, reads from above (a gather: an embedding lookup), a
  /// scatter-add, and accumulates it (AutodiffLinalg.cpp).
  LogicalResult adjointForExtract(linalg::GenericOp generic,
                                  tensor::ExtractOp extract,
                                  ArrayRef<Value> resultAdjoints,
                                  ArrayRef<ReductionKind> kinds);
};

} // namespace mlir::pp::autodiff

#endif // PP_LIB_MODEL_AUTODIFFINTERNAL_H
