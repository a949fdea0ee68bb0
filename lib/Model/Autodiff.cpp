//===- Autodiff.cpp - pp-autodiff -----------------------------------------===//
//
// Reverse-mode automatic differentiation of a function that returns one
// scalar loss, on linalg-on-tensors (docs/Autodiff.md).
//
// The function is cloned into @<name>_grad; the clone keeps the forward
// computation and appends the reverse sweep, which walks the forward ops in
// reverse and turns the adjoint of each op's results into adjoints of its
// operands. One rule covers every linalg.generic:
//
//   For each differentiated operand `x` of a generic whose indexing map is a
//   projected permutation (unit dimensions may be indexed by the constant
//   0), an adjoint linalg.generic runs over the same iteration space, reads
//   the forward operands and the adjoints of the results at their maps, and
//   writes into a zero tensor shaped like `x` at x's map: iteration
//   dimensions missing from x's map become reductions. Its body is a copy of
//   the forward body followed by the reverse mode of that scalar code.
//
// Inputs read through a window map (results such as `d1 * 2 + d4`: loop
// dimensions times positive constants plus a constant, as in convolutions
// and pooling) get the same adjoint generic written into an expanded tensor,
// indexed by every loop dimension of the map (a projected permutation),
// which foldWindow then sums into x's shape with strided slices.
//
// Reductions read the output block argument (the accumulator). Sums (the
// accumulator reaches the yield through arith.addf / the left side of
// arith.subf only) are differentiated body-locally, the accumulator standing
// for zero; their initial value receives the output adjoint. Max and min
// reductions (arith.maximumf / maxnumf / minimumf / minnumf of the
// accumulator and a value) substitute the accumulator with the reduction's
// final result and break ties in favour of the non-accumulator operand, so
// every element equal to the result receives the whole output adjoint
// (d max/dx = [x == max]).
//
//===----------------------------------------------------------------------===//

#include "PrepareModel.h"
#include "StageFunctions.h"

#include "pp/Model/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <optional>

namespace mlir::pp {
#define GEN_PASS_DEF_PPAUTODIFFPASS
#include "pp/Model/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

//===----------------------------------------------------------------------===//
// Types and small builders
//===----------------------------------------------------------------------===//

static bool isFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

/// Values that carry gradients: float scalars and ranked float tensors.
static bool isDifferentiableType(Type type) {
  return isa<FloatType>(type) || isFloatTensor(type);
}

static Value floatConstant(OpBuilder &b, Location loc, Type type, double v) {
  return arith::ConstantOp::create(b, loc,
                                   cast<TypedAttr>(b.getFloatAttr(type, v)));
}

Value mlir::pp::zeros(OpBuilder &b, Location loc, Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    Value empty = tensor::EmptyOp::create(b, loc, tensor.getShape(),
                                          tensor.getElementType());
    Value zero = floatConstant(b, loc, tensor.getElementType(), 0.0);
    return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  }
  return floatConstant(b, loc, type, 0.0);
}

static SmallVector<utils::IteratorType> parallelIterators(int64_t n) {
  return SmallVector<utils::IteratorType>(n, utils::IteratorType::parallel);
}

Value mlir::pp::addValues(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  auto tensor = dyn_cast<RankedTensorType>(lhs.getType());
  if (!tensor)
    return arith::AddFOp::create(b, loc, lhs, rhs);
  int64_t rank = tensor.getRank();
  AffineMap id = b.getMultiDimIdentityMap(rank);
  Value empty = tensor::EmptyOp::create(b, loc, tensor.getShape(),
                                        tensor.getElementType());
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{tensor}, ValueRange{lhs, rhs}, ValueRange{empty},
      ArrayRef<AffineMap>{id, id, id}, parallelIterators(rank),
      [](OpBuilder &nb, Location nloc, ValueRange args) {
        Value sum = arith::AddFOp::create(nb, nloc, args[0], args[1]);
        linalg::YieldOp::create(nb, nloc, sum);
      });
  return generic.getResult(0);
}

/// The sum of all elements of a float tensor, as a scalar.
static Value sumAll(OpBuilder &b, Location loc, Value tensorValue) {
  auto tensor = cast<RankedTensorType>(tensorValue.getType());
  int64_t rank = tensor.getRank();
  Type elem = tensor.getElementType();
  auto scalarType = RankedTensorType::get({}, elem);
  Value init = zeros(b, loc, scalarType);
  AffineMap in = b.getMultiDimIdentityMap(rank);
  AffineMap out = AffineMap::get(rank, 0, {}, b.getContext());
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{scalarType}, ValueRange{tensorValue}, ValueRange{init},
      ArrayRef<AffineMap>{in, out},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::reduction),
      [](OpBuilder &nb, Location nloc, ValueRange args) {
        Value sum = arith::AddFOp::create(nb, nloc, args[1], args[0]);
        linalg::YieldOp::create(nb, nloc, sum);
      });
  return tensor::ExtractOp::create(b, loc, generic.getResult(0), ValueRange{});
}

template <typename T> static std::string str(T value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << value;
  return text;
}

//===----------------------------------------------------------------------===//
// Scalar rules (arith/math), shared by linalg bodies and top-level scalars
//===----------------------------------------------------------------------===//

/// Ops with float operands whose results carry no gradient (comparisons,
/// conversions to integers, classification): differentiable with a zero
/// derivative (almost everywhere).
static bool isZeroGradientOp(Operation *op) {
  return isa<arith::CmpFOp, arith::FPToSIOp, arith::FPToUIOp, math::IsNaNOp,
             math::IsInfOp, math::IsFiniteOp, math::IsNormalOp, math::FloorOp,
             math::CeilOp, math::RoundOp, math::RoundEvenOp, math::TruncOp>(op);
}

/// Scalar ops with a reverse-mode rule in differentiateScalarOp.
static bool isSupportedScalarOp(Operation *op) {
  return isZeroGradientOp(op) ||
         isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
             arith::NegFOp, arith::MaximumFOp, arith::MaxNumFOp,
             arith::MinimumFOp, arith::MinNumFOp, arith::SelectOp,
             arith::ExtFOp, arith::TruncFOp, arith::ConstantOp, math::ExpOp,
             math::Exp2Op, math::ExpM1Op, math::LogOp, math::Log2Op,
             math::Log10Op, math::Log1pOp, math::TanhOp, math::SqrtOp,
             math::RsqrtOp, math::PowFOp, math::FPowIOp, math::ErfOp,
             math::ErfcOp, math::SinOp, math::CosOp, math::TanOp, math::AtanOp,
             math::AbsFOp, math::FmaOp, math::CbrtOp>(op);
}

static constexpr const char *kSupportedScalarOps =
    "arith.addf, subf, mulf, divf, negf, maximumf, maxnumf, minimumf, "
    "minnumf, select, cmpf, extf, truncf, constant; math.exp, exp2, expm1, "
    "log, log2, log10, log1p, tanh, sqrt, rsqrt, powf, fpowi, erf, erfc, "
    "sin, cos, tan, atan, absf, fma, cbrt, floor, ceil, round, trunc";

namespace {
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
} // namespace

/// Adds to the operands of `op` the contributions of `dz`, the adjoint of
/// its (single) result. Fails for ops without a rule.
static LogicalResult differentiateScalarOp(ScalarReverse &rev, Operation *op,
                                           Value dz) {
  OpBuilder &b = rev.b;
  Location loc = op->getLoc();
  if (isZeroGradientOp(op) || isa<arith::ConstantOp>(op))
    return success();
  Value z = op->getResult(0);
  Type type = z.getType();
  auto cst = [&](double v) { return floatConstant(b, loc, type, v); };
  auto mul = [&](Value x, Value y) -> Value {
    return arith::MulFOp::create(b, loc, x, y);
  };
  auto div = [&](Value x, Value y) -> Value {
    return arith::DivFOp::create(b, loc, x, y);
  };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddFOp::create(b, loc, x, y);
  };
  auto sub = [&](Value x, Value y) -> Value {
    return arith::SubFOp::create(b, loc, x, y);
  };
  auto neg = [&](Value x) -> Value { return arith::NegFOp::create(b, loc, x); };
  auto select = [&](Value c, Value t, Value f) -> Value {
    return arith::SelectOp::create(b, loc, c, t, f);
  };
  auto give = [&](Value operand, llvm::function_ref<Value()> adjoint) {
    if (rev.isActive(operand))
      rev.accumulate(operand, adjoint());
  };
  // max/min: the winner `w` (>= for max, <= for min) takes dz; on ties the
  // first operand wins unless it is a reduction accumulator.
  auto extremum = [&](Value lhs, Value rhs, bool isMax) {
    bool swap = rev.accumulators && rev.accumulators->contains(lhs);
    Value w = swap ? rhs : lhs, o = swap ? lhs : rhs;
    Value wins = arith::CmpFOp::create(
        b, loc, isMax ? arith::CmpFPredicate::OGE : arith::CmpFPredicate::OLE,
        w, o);
    give(w, [&] { return select(wins, dz, cst(0.0)); });
    give(o, [&] { return select(wins, cst(0.0), dz); });
  };

  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](arith::AddFOp o) {
        give(o.getLhs(), [&] { return dz; });
        give(o.getRhs(), [&] { return dz; });
        return success();
      })
      .Case([&](arith::SubFOp o) {
        give(o.getLhs(), [&] { return dz; });
        give(o.getRhs(), [&] { return neg(dz); });
        return success();
      })
      .Case([&](arith::MulFOp o) {
        give(o.getLhs(), [&] { return mul(dz, o.getRhs()); });
        give(o.getRhs(), [&] { return mul(dz, o.getLhs()); });
        return success();
      })
      .Case([&](arith::DivFOp o) {
        // z = x / y: dx = dz / y, dy = -dz * z / y.
        give(o.getLhs(), [&] { return div(dz, o.getRhs()); });
        give(o.getRhs(), [&] { return neg(div(mul(dz, z), o.getRhs())); });
        return success();
      })
      .Case([&](arith::NegFOp o) {
        give(o.getOperand(), [&] { return neg(dz); });
        return success();
      })
      .Case<arith::MaximumFOp, arith::MaxNumFOp>([&](Operation *o) {
        extremum(o->getOperand(0), o->getOperand(1), /*isMax=*/true);
        return success();
      })
      .Case<arith::MinimumFOp, arith::MinNumFOp>([&](Operation *o) {
        extremum(o->getOperand(0), o->getOperand(1), /*isMax=*/false);
        return success();
      })
      .Case([&](arith::SelectOp o) {
        if (!isa<IntegerType>(o.getCondition().getType()))
          return failure();
        give(o.getTrueValue(),
             [&] { return select(o.getCondition(), dz, cst(0.0)); });
        give(o.getFalseValue(),
             [&] { return select(o.getCondition(), cst(0.0), dz); });
        return success();
      })
      .Case([&](arith::ExtFOp o) {
        give(o.getIn(), [&]() -> Value {
          return arith::TruncFOp::create(b, loc, o.getIn().getType(), dz);
        });
        return success();
      })
      .Case([&](arith::TruncFOp o) {
        give(o.getIn(), [&]() -> Value {
          return arith::ExtFOp::create(b, loc, o.getIn().getType(), dz);
        });
        return success();
      })
      .Case([&](math::ExpOp o) {
        give(o.getOperand(), [&] { return mul(dz, z); });
        return success();
      })
      .Case([&](math::Exp2Op o) {
        give(o.getOperand(), [&] { return mul(dz, mul(z, cst(M_LN2))); });
        return success();
      })
      .Case([&](math::ExpM1Op o) {
        give(o.getOperand(), [&] { return mul(dz, add(z, cst(1.0))); });
        return success();
      })
      .Case([&](math::LogOp o) {
        give(o.getOperand(), [&] { return div(dz, o.getOperand()); });
        return success();
      })
      .Case([&](math::Log2Op o) {
        give(o.getOperand(),
             [&] { return div(dz, mul(o.getOperand(), cst(M_LN2))); });
        return success();
      })
      .Case([&](math::Log10Op o) {
        give(o.getOperand(),
             [&] { return div(dz, mul(o.getOperand(), cst(M_LN10))); });
        return success();
      })
      .Case([&](math::Log1pOp o) {
        give(o.getOperand(),
             [&] { return div(dz, add(o.getOperand(), cst(1.0))); });
        return success();
      })
      .Case([&](math::TanhOp o) {
        give(o.getOperand(), [&] { return mul(dz, sub(cst(1.0), mul(z, z))); });
        return success();
      })
      .Case([&](math::SqrtOp o) {
        give(o.getOperand(), [&] { return div(mul(dz, cst(0.5)), z); });
        return success();
      })
      .Case([&](math::RsqrtOp o) {
        // z = x^-1/2: dz/dx = -z / (2x).
        give(o.getOperand(),
             [&] { return mul(dz, div(mul(cst(-0.5), z), o.getOperand())); });
        return success();
      })
      .Case([&](math::PowFOp o) {
        Value x = o.getLhs(), y = o.getRhs();
        give(x, [&]() -> Value {
          Value p = math::PowFOp::create(b, loc, x, sub(y, cst(1.0)));
          return mul(dz, mul(y, p));
        });
        give(y, [&]() -> Value {
          return mul(dz, mul(z, math::LogOp::create(b, loc, x)));
        });
        return success();
      })
      .Case([&](math::FPowIOp o) {
        // z = x^n: dz/dx = n * x^(n-1), and 0 for n = 0.
        Value x = o.getLhs(), n = o.getRhs();
        give(x, [&]() -> Value {
          Type intType = n.getType();
          Value one = arith::ConstantOp::create(
              b, loc, cast<TypedAttr>(b.getIntegerAttr(intType, 1)));
          Value zero = arith::ConstantOp::create(
              b, loc, cast<TypedAttr>(b.getIntegerAttr(intType, 0)));
          Value nm1 = arith::SubIOp::create(b, loc, n, one);
          Value p = math::FPowIOp::create(b, loc, x, nm1);
          Value nf = arith::SIToFPOp::create(b, loc, type, n);
          Value isZero =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, n, zero);
          Value d = select(isZero, cst(0.0), mul(nf, p));
          return mul(dz, d);
        });
        return success();
      })
      .Case([&](math::ErfOp o) {
        // d erf(x)/dx = 2/sqrt(pi) * exp(-x^2).
        give(o.getOperand(), [&]() -> Value {
          Value x = o.getOperand();
          Value e = math::ExpOp::create(b, loc, neg(mul(x, x)));
          return mul(dz, mul(cst(M_2_SQRTPI), e));
        });
        return success();
      })
      .Case([&](math::ErfcOp o) {
        give(o.getOperand(), [&]() -> Value {
          Value x = o.getOperand();
          Value e = math::ExpOp::create(b, loc, neg(mul(x, x)));
          return mul(dz, mul(cst(-M_2_SQRTPI), e));
        });
        return success();
      })
      .Case([&](math::SinOp o) {
        give(o.getOperand(), [&]() -> Value {
          return mul(dz, math::CosOp::create(b, loc, o.getOperand()));
        });
        return success();
      })
      .Case([&](math::CosOp o) {
        give(o.getOperand(), [&]() -> Value {
          return neg(mul(dz, math::SinOp::create(b, loc, o.getOperand())));
        });
        return success();
      })
      .Case([&](math::TanOp o) {
        give(o.getOperand(), [&] { return mul(dz, add(cst(1.0), mul(z, z))); });
        return success();
      })
      .Case([&](math::AtanOp o) {
        give(o.getOperand(), [&] {
          Value x = o.getOperand();
          return div(dz, add(cst(1.0), mul(x, x)));
        });
        return success();
      })
      .Case([&](math::AbsFOp o) {
        give(o.getOperand(), [&]() -> Value {
          Value negative = arith::CmpFOp::create(
              b, loc, arith::CmpFPredicate::OLT, o.getOperand(), cst(0.0));
          return select(negative, neg(dz), dz);
        });
        return success();
      })
      .Case([&](math::FmaOp o) {
        give(o.getA(), [&] { return mul(dz, o.getB()); });
        give(o.getB(), [&] { return mul(dz, o.getA()); });
        give(o.getC(), [&] { return dz; });
        return success();
      })
      .Case([&](math::CbrtOp o) {
        // z = x^(1/3): dz/dx = z / (3x).
        give(o.getOperand(),
             [&] { return div(mul(dz, z), mul(cst(3.0), o.getOperand())); });
        return success();
      })
      .Default([](Operation *) { return failure(); });
}

//===----------------------------------------------------------------------===//
// linalg.generic analysis
//===----------------------------------------------------------------------===//

namespace {
enum class ReductionKind { None, Sum, Max, Min };
} // namespace

/// How output `j` of a generic with reduction iterators accumulates: a sum
/// when its block argument reaches the yield through arith.addf (either
/// side) and arith.subf (left side) only, each intermediate value used once;
/// a max/min when it is combined once by a max/min op whose result is
/// yielded. `None` otherwise (also when the accumulator is unused).
static ReductionKind classifyReduction(linalg::GenericOp generic, unsigned j) {
  Block &body = generic.getRegion().front();
  BlockArgument acc = body.getArgument(generic.getNumDpsInputs() + j);
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  Value yielded = yield.getOperand(j);
  if (!isa<FloatType>(acc.getType()) || acc.use_empty())
    return ReductionKind::None;
  // The yielded value must be yielded exactly once, as output j.
  if (llvm::count(yield.getOperands(), yielded) != 1)
    return ReductionKind::None;
  if (acc.hasOneUse()) {
    Operation *user = *acc.getUsers().begin();
    if (user->getNumResults() == 1 && user->getResult(0) == yielded) {
      if (isa<arith::MaximumFOp, arith::MaxNumFOp>(user) &&
          user->getOperand(0) != user->getOperand(1))
        return ReductionKind::Max;
      if (isa<arith::MinimumFOp, arith::MinNumFOp>(user) &&
          user->getOperand(0) != user->getOperand(1))
        return ReductionKind::Min;
    }
  }
  Value v = acc;
  while (v != yielded) {
    if (!v.hasOneUse())
      return ReductionKind::None;
    OpOperand &use = *v.getUses().begin();
    Operation *user = use.getOwner();
    bool additive = (isa<arith::AddFOp>(user) &&
                     user->getOperand(0) != user->getOperand(1)) ||
                    (isa<arith::SubFOp>(user) && use.getOperandNumber() == 0 &&
                     user->getOperand(1) != v);
    if (!additive)
      return ReductionKind::None;
    v = user->getResult(0);
  }
  // The yielded value itself is used by the yield only.
  if (!v.hasOneUse())
    return ReductionKind::None;
  return ReductionKind::Sum;
}


//===----------------------------------------------------------------------===//
// Window maps (convolution and pooling inputs)
//===----------------------------------------------------------------------===//

/// Folds `expanded`, the adjoint of an operand of type `type` read through
/// the window map `window`, into that operand's shape. `expanded` has one
/// dimension per term of `window` (result by result, term by term) whose
/// size is that loop dimension's range in `loopRanges`; element
/// (.., i, k, ..) of it belongs at operand index c + s*i + t*k of a result
/// `c + d_i * s + d_k * t`, and several elements may land on one index (the
/// overlapping windows), so they are summed.
///
/// In each result the term of the largest range (the output position of a
/// convolution, rather than the kernel position) becomes a strided slice,
/// and the other terms are unrolled: for each combination of their values,
/// the slice of `expanded` at those values is added into the slice of the
/// accumulator at offset (constant + sum of coefficient * value), with the
/// remaining term's coefficient as stride. A 3x3 kernel thus gives 9 slice
/// additions. Fails if a window reads outside the operand (which the linalg
/// verifier excludes).
static FailureOr<Value> foldWindow(OpBuilder &b, Location loc, Value expanded,
                                   RankedTensorType type,
                                   ArrayRef<WindowIndex> window,
                                   ArrayRef<int64_t> loopRanges) {
  auto expandedType = cast<RankedTensorType>(expanded.getType());
  Type elementType = type.getElementType();

  /// A term of the window that is unrolled: its position in `expanded`, the
  /// result (operand dimension) it belongs to, its coefficient there and
  /// its range.
  struct Unrolled {
    int64_t position, result, coefficient, range;
  };
  SmallVector<Unrolled> unrolled;
  // Per result: the position in `expanded` of its sliced term (-1 for a
  // constant result), that term's range and coefficient.
  SmallVector<int64_t> slicedPosition, slicedRange, slicedStride;
  int64_t position = 0;
  for (auto [r, index] : llvm::enumerate(window)) {
    int64_t best = -1;
    for (auto [t, term] : llvm::enumerate(index.terms))
      if (best < 0 ||
          loopRanges[term.first] > loopRanges[index.terms[best].first])
        best = t;
    int64_t extent = index.constant;
    for (auto [t, term] : llvm::enumerate(index.terms)) {
      int64_t range = loopRanges[term.first];
      if (range == 0)
        return zeros(b, loc, type); // An empty iteration space.
      extent += term.second * (range - 1);
      if (static_cast<int64_t>(t) != best)
        unrolled.push_back({position + static_cast<int64_t>(t),
                            static_cast<int64_t>(r), term.second, range});
    }
    if (extent >= type.getDimSize(r))
      return failure();
    if (best < 0) {
      slicedPosition.push_back(-1);
      slicedRange.push_back(1);
      slicedStride.push_back(1);
    } else {
      slicedPosition.push_back(position + best);
      slicedRange.push_back(loopRanges[index.terms[best].first]);
      slicedStride.push_back(index.terms[best].second);
    }
    position += index.terms.size();
  }

  // Both slices are rank-reduced to the sliced terms.
  SmallVector<int64_t> sliceShape;
  for (auto [r, p] : llvm::enumerate(slicedPosition))
    if (p >= 0)
      sliceShape.push_back(slicedRange[r]);
  auto sliceType = RankedTensorType::get(sliceShape, elementType);

  Value accumulator = zeros(b, loc, type);
  SmallVector<int64_t> values(unrolled.size(), 0);
  bool first = true;
  while (true) {
    SmallVector<OpFoldResult> partOffsets, partSizes, partStrides;
    for (int64_t p = 0; p < expandedType.getRank(); ++p) {
      partOffsets.push_back(b.getIndexAttr(0));
      partSizes.push_back(b.getIndexAttr(expandedType.getDimSize(p)));
      partStrides.push_back(b.getIndexAttr(1));
    }
    SmallVector<int64_t> offsets;
    for (const WindowIndex &index : window)
      offsets.push_back(index.constant);
    for (auto [u, value] : llvm::zip_equal(unrolled, values)) {
      partOffsets[u.position] = b.getIndexAttr(value);
      partSizes[u.position] = b.getIndexAttr(1);
      offsets[u.result] += u.coefficient * value;
    }
    SmallVector<OpFoldResult> accOffsets, accSizes, accStrides;
    for (size_t r = 0; r < window.size(); ++r) {
      accOffsets.push_back(b.getIndexAttr(offsets[r]));
      accSizes.push_back(b.getIndexAttr(slicedRange[r]));
      accStrides.push_back(b.getIndexAttr(slicedStride[r]));
    }
    Value part = tensor::ExtractSliceOp::create(
        b, loc, sliceType, expanded, partOffsets, partSizes, partStrides);
    // The accumulator is zero before the first addition.
    if (!first) {
      Value old = tensor::ExtractSliceOp::create(
          b, loc, sliceType, accumulator, accOffsets, accSizes, accStrides);
      part = addValues(b, loc, old, part);
    }
    accumulator = tensor::InsertSliceOp::create(
        b, loc, part, accumulator, accOffsets, accSizes, accStrides);
    first = false;
    // Next combination of the unrolled terms (the last one fastest).
    int64_t u = static_cast<int64_t>(unrolled.size()) - 1;
    for (; u >= 0; --u) {
      if (++values[u] < unrolled[u].range)
        break;
      values[u] = 0;
    }
    if (u < 0)
      break;
  }
  return accumulator;
}

//===----------------------------------------------------------------------===//
// The differentiator
//===----------------------------------------------------------------------===//

namespace {
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

  std::string name(Operation *op) const {
    auto it = originalNames.find(op);
    if (it != originalNames.end())
      return it->second;
    return op->getName().getStringRef().str();
  }
  bool isActive(Value v) const { return active.contains(v); }
  void accumulate(Value v, Value d);

  /// Marks values that depend on the arguments `wrt` (active) and values
  /// the results `roots` depend on (useful).
  void analyze(ArrayRef<unsigned> wrt, ArrayRef<Value> roots);
  /// Values used inside the regions of `op` but defined outside.
  static SetVector<Value> captured(Operation *op);
  /// An op the loss depends on and which depends on the arguments.
  bool needsDerivative(Operation *op);
  LogicalResult check(Operation *op);
  LogicalResult checkGeneric(linalg::GenericOp generic);
  LogicalResult differentiate(Operation *op);
  LogicalResult differentiateGeneric(linalg::GenericOp generic);
  /// Builds the adjoint generic for one operand (`primal`, read in the body
  /// as `bodyValue` through `map`) and accumulates the result.
  LogicalResult adjointForOperand(linalg::GenericOp generic, Value primal,
                                  Value bodyValue, AffineMap map,
                                  ArrayRef<Value> resultAdjoints,
                                  ArrayRef<ReductionKind> kinds);
};
} // namespace

void Differentiator::accumulate(Value v, Value d) {
  auto it = adjoints.find(v);
  if (it == adjoints.end()) {
    adjoints[v] = d;
    return;
  }
  it->second = addValues(b, d.getLoc(), it->second, d);
}

SetVector<Value> Differentiator::captured(Operation *op) {
  SetVector<Value> values;
  for (Region &region : op->getRegions())
    getUsedValuesDefinedAbove(region, values);
  return values;
}

void Differentiator::analyze(ArrayRef<unsigned> wrt, ArrayRef<Value> roots) {
  Block &block = func.getBody().front();
  for (unsigned i : wrt)
    active.insert(block.getArgument(i));
  for (Operation &op : block.without_terminator()) {
    bool anyActive =
        llvm::any_of(op.getOperands(), [&](Value v) { return isActive(v); }) ||
        llvm::any_of(captured(&op), [&](Value v) { return isActive(v); });
    if (!anyActive)
      continue;
    for (Value result : op.getResults())
      if (isDifferentiableType(result.getType()))
        active.insert(result);
  }
  for (Value v : roots)
    useful.insert(v);
  for (Operation &op : llvm::reverse(block.without_terminator())) {
    if (llvm::none_of(op.getResults(),
                      [&](Value v) { return useful.contains(v); }))
      continue;
    for (Value v : op.getOperands())
      useful.insert(v);
    for (Value v : captured(&op))
      useful.insert(v);
  }
}

bool Differentiator::needsDerivative(Operation *op) {
  if (llvm::none_of(op->getResults(),
                    [&](Value v) { return useful.contains(v) && isActive(v); }))
    return false;
  return llvm::any_of(op->getOperands(),
                      [&](Value v) { return isActive(v); }) ||
         llvm::any_of(captured(op), [&](Value v) { return isActive(v); });
}

static constexpr const char *kSupportedOps =
    "linalg.generic and named linalg ops, elementwise arith/math, "
    "tensor.expand_shape/collapse_shape/reshape/cast/extract_slice/"
    "insert_slice/pad/concat/extract/insert/from_elements, linalg.fill";

/// Calls and side effects are refused wherever they are in the loss
/// function: a timer or a print between the forward ops would be silently
/// dropped or duplicated. Checked on the function as written, before the
/// normalization (which may erase unused ops) of its copy.
static LogicalResult checkEffects(Operation *op, StringRef name) {
  if (auto call = dyn_cast<CallOpInterface>(op)) {
    InFlightDiagnostic diag =
        mlir::emitError(op->getLoc(), "cannot differentiate ");
    if (auto callee = llvm::dyn_cast_if_present<SymbolRefAttr>(
            call.getCallableForCallee()))
      diag << "call to " << callee;
    else
      diag << "'" << op->getName() << "'";
    diag << ": calls are not differentiated; inline private helper "
            "functions first (pp-prepare-model), and remove instrumentation "
            "such as timers and prints (pp-strip-instrumentation)";
    return failure();
  }
  if (!isMemoryEffectFree(op)) {
    mlir::emitError(op->getLoc(), "cannot differentiate '")
        << name
        << "': it has side effects; remove it (pp-strip-instrumentation for "
           "timers and prints) or move it out of the loss function";
    return failure();
  }
  return success();
}

LogicalResult Differentiator::check(Operation *op) {
  if (failed(checkEffects(op, name(op))))
    return failure();

  // Integers (or other non-float values) computed from differentiated
  // values and reaching the loss: fine for comparisons and conversions,
  // which have a zero derivative, but not for bit casts and unknown ops.
  bool activeIn =
      llvm::any_of(op->getOperands(), [&](Value v) { return isActive(v); }) ||
      llvm::any_of(captured(op), [&](Value v) { return isActive(v); });
  bool usefulNonFloat = llvm::any_of(op->getResults(), [&](Value v) {
    return useful.contains(v) && !isDifferentiableType(v.getType());
  });
  if (activeIn && usefulNonFloat && !needsDerivative(op)) {
    if (auto generic = dyn_cast<linalg::GenericOp>(op))
      return checkGeneric(generic);
    if (isZeroGradientOp(op) || isa<tensor::DimOp>(op))
      return success();
    mlir::emitError(op->getLoc(), "cannot differentiate '")
        << name(op)
        << "': it turns values that depend on the differentiated arguments "
           "into non-float values that reach the loss, and pp-autodiff has "
           "no rule for it";
    return failure();
  }

  if (!needsDerivative(op))
    return success();

  // Dynamic shapes are reported where they appear: at the op producing
  // them (or using a dynamically shaped argument).
  for (Value v : op->getOperands()) {
    auto shaped = dyn_cast<ShapedType>(v.getType());
    if (isa<BlockArgument>(v) && shaped &&
        (!isa<RankedTensorType>(shaped) || !shaped.hasStaticShape())) {
      mlir::emitError(op->getLoc(), "cannot differentiate '")
          << name(op) << "': dynamic shapes are not supported ("
          << str(v.getType()) << "); give the model static shapes";
      return failure();
    }
  }
  for (Value v : op->getResults()) {
    auto shaped = dyn_cast<ShapedType>(v.getType());
    if (shaped &&
        (!isa<RankedTensorType>(shaped) || !shaped.hasStaticShape())) {
      mlir::emitError(op->getLoc(), "cannot differentiate '")
          << name(op) << "': dynamic shapes are not supported ("
          << str(v.getType()) << "); give the model static shapes";
      return failure();
    }
  }

  bool allScalar = llvm::all_of(op->getOperandTypes(),
                                [](Type t) { return !isa<ShapedType>(t); }) &&
                   llvm::all_of(op->getResultTypes(),
                                [](Type t) { return !isa<ShapedType>(t); });
  if (allScalar && isSupportedScalarOp(op) && op->getNumResults() == 1)
    return success();

  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](linalg::GenericOp g) { return checkGeneric(g); })
      .Case([&](tensor::PadOp pad) -> LogicalResult {
        Value padding = pad.getConstantPaddingValue();
        if (!padding || isActive(padding)) {
          mlir::emitError(op->getLoc(),
                          "cannot differentiate 'tensor.pad' "
                          "with respect to its padding value; pad with a "
                          "constant");
          return failure();
        }
        return success();
      })
      .Case<linalg::FillOp, tensor::ExtractOp, tensor::InsertOp,
            tensor::FromElementsOp, tensor::ExpandShapeOp,
            tensor::CollapseShapeOp, tensor::ReshapeOp, tensor::CastOp,
            tensor::ExtractSliceOp, tensor::InsertSliceOp, tensor::ConcatOp>(
          [](Operation *) { return success(); })
      .Default([&](Operation *) {
        mlir::emitError(op->getLoc(), "cannot differentiate '")
            << name(op)
            << "': its result depends on the differentiated arguments and "
               "reaches the loss, and pp-autodiff has no rule for it; "
               "supported: "
            << kSupportedOps
            << " (run pp-prepare-model first); rewrite the model with these "
               "ops or add a rule for it to pp-autodiff";
        return failure();
      });
}

LogicalResult Differentiator::checkGeneric(linalg::GenericOp generic) {
  std::string opName = name(generic);
  Block &body = generic.getRegion().front();
  unsigned numInputs = generic.getNumDpsInputs();
  bool hasReduction = generic.getNumReductionLoops() > 0;
  bool ok = true;
  DenseSet<Value> bodyActive;

  for (OpOperand *input : generic.getDpsInputOperands()) {
    if (!isActive(input->get()))
      continue;
    AffineMap map = generic.getMatchingIndexingMap(input);
    std::string why;
    if (failed(decomposeWindowMap(map, input->get().getType(), &why))) {
      mlir::emitError(generic.getLoc(), "cannot differentiate '")
          << opName << "' with respect to input #" << input->getOperandNumber()
          << ": its indexing map " << str(map) << " is not supported: " << why
          << "; supported: " << kSupportedIndexingMaps;
      ok = false;
    }
    bodyActive.insert(body.getArgument(input->getOperandNumber()));
  }

  for (unsigned j = 0, e = generic.getNumDpsInits(); j < e; ++j) {
    OpOperand &init = generic.getDpsInitsMutable()[j];
    BlockArgument acc = body.getArgument(numInputs + j);
    AffineMap map = generic.getMatchingIndexingMap(&init);
    if (!hasReduction) {
      if (!map.isPermutation()) {
        // Without reductions, a dimension missing from an output's map
        // writes its elements several times (the last write wins).
        mlir::emitError(generic.getLoc(), "cannot differentiate '")
            << opName << "': output #" << j << " has the indexing map "
            << str(map)
            << ", which is not a permutation of the iteration space, but no "
               "dimension is a reduction; mark the missing dimensions as "
               "reductions";
        ok = false;
        continue;
      }
      if (acc.use_empty() || !isActive(init.get()))
        continue;
      bodyActive.insert(acc);
      continue;
    }
    Value result = generic.getResult(j);
    ReductionKind kind = classifyReduction(generic, j);
    if (kind == ReductionKind::None && !acc.use_empty() &&
        isDifferentiableType(result.getType())) {
      mlir::emitError(generic.getLoc(), "cannot differentiate '")
          << opName << "': output #" << j
          << " is a reduction whose accumulator is not combined by one "
             "arith.addf/arith.subf chain (a sum) or one "
             "arith.maximumf/maxnumf/minimumf/minnumf (a max/min); other "
             "reductions (products, arg-max, ...) are not supported";
      ok = false;
    }
    if (kind == ReductionKind::None && acc.use_empty() &&
        isDifferentiableType(result.getType()) && useful.contains(result)) {
      mlir::emitError(generic.getLoc(), "cannot differentiate '")
          << opName << "': output #" << j
          << " has reduction iterators but does not read its accumulator";
      ok = false;
    }
    if ((kind == ReductionKind::Max || kind == ReductionKind::Min) &&
        isActive(init.get())) {
      mlir::emitError(generic.getLoc(), "cannot differentiate '")
          << opName
          << "' with respect to the initial value of its max/min "
             "reduction (output #"
          << j << "); start it from a constant";
      ok = false;
    }
  }

  for (Value v : captured(generic))
    if (isActive(v))
      bodyActive.insert(v);

  for (Operation &op : body.without_terminator()) {
    if (llvm::none_of(op.getOperands(),
                      [&](Value v) { return bodyActive.contains(v); }) &&
        llvm::none_of(captured(&op),
                      [&](Value v) { return bodyActive.contains(v); }))
      continue;
    if (!isSupportedScalarOp(&op) || op.getNumResults() != 1) {
      mlir::emitError(op.getLoc(), "cannot differentiate '")
          << op.getName() << "' in the body of '" << opName
          << "'; supported scalar ops: " << kSupportedScalarOps;
      ok = false;
      continue;
    }
    for (Value r : op.getResults())
      if (isa<FloatType>(r.getType()))
        bodyActive.insert(r);
  }
  return success(ok);
}

LogicalResult Differentiator::differentiate(Operation *op) {
  Location loc = op->getLoc();
  auto adjointOf = [&](Value v) { return adjoints.lookup(v); };
  bool allScalar = llvm::all_of(op->getOperandTypes(),
                                [](Type t) { return !isa<ShapedType>(t); }) &&
                   llvm::all_of(op->getResultTypes(),
                                [](Type t) { return !isa<ShapedType>(t); });
  if (allScalar && isSupportedScalarOp(op) && op->getNumResults() == 1) {
    Value dz = adjointOf(op->getResult(0));
    if (!dz)
      return success();
    auto activeFn = [&](Value v) { return isActive(v); };
    auto accumulateFn = [&](Value v, Value d) { accumulate(v, d); };
    ScalarReverse rev{b, activeFn, accumulateFn};
    return differentiateScalarOp(rev, op, dz);
  }

  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](linalg::GenericOp g) { return differentiateGeneric(g); })
      .Case([&](linalg::FillOp fill) {
        // The output is overwritten: only the filled value gets a gradient.
        Value d = adjointOf(fill.getResult(0));
        Value value = fill.getInputs()[0];
        if (d && isActive(value))
          accumulate(value, sumAll(b, loc, d));
        return success();
      })
      .Case([&](tensor::ExtractOp extract) {
        Value d = adjointOf(extract.getResult());
        if (d && isActive(extract.getTensor())) {
          Value zero = zeros(b, loc, extract.getTensor().getType());
          accumulate(
              extract.getTensor(),
              tensor::InsertOp::create(b, loc, d, zero, extract.getIndices()));
        }
        return success();
      })
      .Case([&](tensor::InsertOp insert) {
        Value d = adjointOf(insert.getResult());
        if (!d)
          return success();
        if (isActive(insert.getScalar()))
          accumulate(insert.getScalar(),
                     tensor::ExtractOp::create(b, loc, d, insert.getIndices()));
        if (isActive(insert.getDest())) {
          Value zero = floatConstant(b, loc, insert.getScalar().getType(), 0);
          accumulate(
              insert.getDest(),
              tensor::InsertOp::create(b, loc, zero, d, insert.getIndices()));
        }
        return success();
      })
      .Case([&](tensor::FromElementsOp fromElements) {
        Value d = adjointOf(fromElements.getResult());
        if (!d)
          return success();
        auto type = cast<RankedTensorType>(d.getType());
        for (auto [linear, element] :
             llvm::enumerate(fromElements.getElements())) {
          if (!isActive(element))
            continue;
          SmallVector<Value> indices;
          int64_t rest = linear;
          SmallVector<int64_t> position(type.getRank());
          for (int64_t dim = type.getRank() - 1; dim >= 0; --dim) {
            position[dim] = rest % type.getDimSize(dim);
            rest /= type.getDimSize(dim);
          }
          for (int64_t p : position)
            indices.push_back(arith::ConstantIndexOp::create(b, loc, p));
          accumulate(element, tensor::ExtractOp::create(b, loc, d, indices));
        }
        return success();
      })
      .Case([&](tensor::ExpandShapeOp expand) {
        Value d = adjointOf(expand.getResult());
        if (d && isActive(expand.getSrc()))
          accumulate(expand.getSrc(), tensor::CollapseShapeOp::create(
                                          b, loc, expand.getSrcType(), d,
                                          expand.getReassociationIndices()));
        return success();
      })
      .Case([&](tensor::CollapseShapeOp collapse) {
        Value d = adjointOf(collapse.getResult());
        if (d && isActive(collapse.getSrc()))
          accumulate(collapse.getSrc(),
                     tensor::ExpandShapeOp::create(
                         b, loc, collapse.getSrcType(), d,
                         collapse.getReassociationIndices()));
        return success();
      })
      .Case([&](tensor::ReshapeOp reshape) {
        Value d = adjointOf(reshape.getResult());
        Value source = reshape.getSource();
        if (d && isActive(source)) {
          auto sourceType = cast<RankedTensorType>(source.getType());
          auto shapeType =
              RankedTensorType::get({sourceType.getRank()}, b.getIndexType());
          Value shape = arith::ConstantOp::create(
              b, loc,
              DenseIntElementsAttr::get(shapeType, sourceType.getShape()));
          accumulate(source,
                     tensor::ReshapeOp::create(b, loc, sourceType, d, shape));
        }
        return success();
      })
      .Case([&](tensor::CastOp castOp) {
        Value d = adjointOf(castOp.getResult());
        if (d && isActive(castOp.getSource()))
          accumulate(
              castOp.getSource(),
              tensor::CastOp::create(b, loc, castOp.getSource().getType(), d));
        return success();
      })
      .Case([&](tensor::ExtractSliceOp slice) {
        // The slice's gradient lands at the slice; zeros elsewhere.
        Value d = adjointOf(slice.getResult());
        if (d && isActive(slice.getSource())) {
          Value zero = zeros(b, loc, slice.getSourceType());
          accumulate(slice.getSource(),
                     tensor::InsertSliceOp::create(
                         b, loc, d, zero, slice.getMixedOffsets(),
                         slice.getMixedSizes(), slice.getMixedStrides()));
        }
        return success();
      })
      .Case([&](tensor::InsertSliceOp insert) {
        Value d = adjointOf(insert.getResult());
        if (!d)
          return success();
        if (isActive(insert.getSource()))
          accumulate(insert.getSource(),
                     tensor::ExtractSliceOp::create(
                         b, loc, insert.getSourceType(), d,
                         insert.getMixedOffsets(), insert.getMixedSizes(),
                         insert.getMixedStrides()));
        if (isActive(insert.getDest())) {
          // The overwritten slice of the destination gets no gradient.
          Value zero = zeros(b, loc, insert.getSourceType());
          accumulate(insert.getDest(),
                     tensor::InsertSliceOp::create(
                         b, loc, zero, d, insert.getMixedOffsets(),
                         insert.getMixedSizes(), insert.getMixedStrides()));
        }
        return success();
      })
      .Case([&](tensor::PadOp pad) {
        Value d = adjointOf(pad.getResult());
        if (d && isActive(pad.getSource())) {
          auto sourceType = pad.getSourceType();
          SmallVector<OpFoldResult> sizes, strides;
          for (int64_t size : sourceType.getShape()) {
            sizes.push_back(b.getIndexAttr(size));
            strides.push_back(b.getIndexAttr(1));
          }
          accumulate(pad.getSource(),
                     tensor::ExtractSliceOp::create(b, loc, sourceType, d,
                                                    pad.getMixedLowPad(), sizes,
                                                    strides));
        }
        return success();
      })
      .Case([&](tensor::ConcatOp concat) {
        Value d = adjointOf(concat.getResult());
        if (!d)
          return success();
        int64_t dim = concat.getDim();
        int64_t offset = 0;
        for (Value input : concat.getInputs()) {
          auto inputType = cast<RankedTensorType>(input.getType());
          if (isActive(input)) {
            SmallVector<OpFoldResult> offsets, sizes, strides;
            for (int64_t i = 0; i < inputType.getRank(); ++i) {
              offsets.push_back(b.getIndexAttr(i == dim ? offset : 0));
              sizes.push_back(b.getIndexAttr(inputType.getDimSize(i)));
              strides.push_back(b.getIndexAttr(1));
            }
            accumulate(input,
                       tensor::ExtractSliceOp::create(b, loc, inputType, d,
                                                      offsets, sizes, strides));
          }
          offset += inputType.getDimSize(dim);
        }
        return success();
      })
      .Default([&](Operation *) {
        return mlir::emitError(loc,
                               "internal error: no rule for '")
               << name(op) << "'";
      });
}

LogicalResult Differentiator::differentiateGeneric(linalg::GenericOp generic) {
  SmallVector<Value> resultAdjoints;
  for (Value result : generic.getResults())
    resultAdjoints.push_back(adjoints.lookup(result));
  if (llvm::all_of(resultAdjoints, [](Value v) { return !v; }))
    return success();

  Block &body = generic.getRegion().front();
  unsigned numInputs = generic.getNumDpsInputs();
  unsigned numInits = generic.getNumDpsInits();
  bool hasReduction = generic.getNumReductionLoops() > 0;
  SmallVector<ReductionKind> kinds;
  for (unsigned j = 0; j < numInits; ++j)
    kinds.push_back(hasReduction ? classifyReduction(generic, j)
                                 : ReductionKind::None);

  // Sums: the initial value is added once to the result.
  if (hasReduction)
    for (unsigned j = 0; j < numInits; ++j) {
      Value init = generic.getDpsInits()[j];
      if (kinds[j] == ReductionKind::Sum && resultAdjoints[j] && isActive(init))
        accumulate(init, resultAdjoints[j]);
    }

  for (OpOperand *input : generic.getDpsInputOperands()) {
    if (!isActive(input->get()))
      continue;
    if (failed(adjointForOperand(
            generic, input->get(), body.getArgument(input->getOperandNumber()),
            generic.getMatchingIndexingMap(input), resultAdjoints, kinds)))
      return failure();
  }
  if (!hasReduction)
    for (unsigned j = 0; j < numInits; ++j) {
      OpOperand &init = generic.getDpsInitsMutable()[j];
      BlockArgument acc = body.getArgument(numInputs + j);
      if (acc.use_empty() || !isActive(init.get()))
        continue;
      if (failed(adjointForOperand(generic, init.get(), acc,
                                   generic.getMatchingIndexingMap(&init),
                                   resultAdjoints, kinds)))
        return failure();
    }
  for (Value v : captured(generic)) {
    if (!isActive(v))
      continue;
    if (!isa<FloatType>(v.getType())) // Refused by checkGeneric.
      return mlir::emitError(generic.getLoc(),
                             "internal error: a tensor captured "
                             "by the body of '")
             << name(generic) << "'";
    AffineMap none =
        AffineMap::get(generic.getNumLoops(), 0, {}, generic.getContext());
    if (failed(adjointForOperand(generic, v, v, none, resultAdjoints, kinds)))
      return failure();
  }
  return success();
}

LogicalResult Differentiator::adjointForOperand(linalg::GenericOp generic,
                                                Value primal, Value bodyValue,
                                                AffineMap map,
                                                ArrayRef<Value> resultAdjoints,
                                                ArrayRef<ReductionKind> kinds) {
  Location loc = generic.getLoc();
  MLIRContext *ctx = generic.getContext();
  Block &body = generic.getRegion().front();
  unsigned numLoops = generic.getNumLoops();
  unsigned numInputs = generic.getNumDpsInputs();
  unsigned numInits = generic.getNumDpsInits();
  bool hasReduction = generic.getNumReductionLoops() > 0;
  Type elementType = getElementTypeOrSelf(primal.getType());
  auto primalTensor = dyn_cast<RankedTensorType>(primal.getType());

  // The adjoint is written at the operand's map, without its constant
  // (unit) dimensions; iteration dimensions outside it are reduced. A window
  // map (sums of dimensions, as in the input of a convolution) is written
  // into an expanded tensor instead, with one dimension per loop dimension
  // of the map (a projected permutation), then folded (foldWindow).
  SmallVector<AffineExpr> keptExprs;
  SmallVector<int64_t> keptPositions, keptShape;
  SmallVector<int64_t> loopRanges = generic.getStaticLoopRanges();
  std::optional<SmallVector<WindowIndex>> window;
  if (primalTensor && !isProjectedPermutationOrUnit(map, primalTensor)) {
    FailureOr<SmallVector<WindowIndex>> decomposed =
        decomposeWindowMap(map, primalTensor);
    if (failed(decomposed)) // Refused by checkGeneric.
      return mlir::emitError(loc, "internal error: unsupported "
                                  "indexing map ")
             << str(map) << " in '" << name(generic) << "'";
    window = std::move(*decomposed);
    for (const WindowIndex &index : *window)
      for (auto [dim, coefficient] : index.terms) {
        keptExprs.push_back(getAffineDimExpr(dim, ctx));
        keptShape.push_back(loopRanges[dim]);
      }
  } else if (primalTensor) {
    for (auto [i, expr] : llvm::enumerate(map.getResults()))
      if (isa<AffineDimExpr>(expr)) {
        keptExprs.push_back(expr);
        keptPositions.push_back(i);
        keptShape.push_back(primalTensor.getDimSize(i));
      }
  }
  AffineMap outMap = AffineMap::get(numLoops, 0, keptExprs, ctx);
  auto outType = RankedTensorType::get(keptShape, elementType);
  SmallVector<utils::IteratorType> iterators(numLoops,
                                             utils::IteratorType::reduction);
  for (AffineExpr expr : keptExprs)
    iterators[cast<AffineDimExpr>(expr).getPosition()] =
        utils::IteratorType::parallel;

  // Candidate inputs: the forward inputs, what stands for each output's
  // block argument, and the adjoint of each result.
  SmallVector<Value> candidates;
  SmallVector<AffineMap> candidateMaps;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    candidates.push_back(input->get());
    candidateMaps.push_back(generic.getMatchingIndexingMap(input));
  }
  for (unsigned j = 0; j < numInits; ++j) {
    OpOperand &init = generic.getDpsInitsMutable()[j];
    bool useResult = hasReduction && (kinds[j] == ReductionKind::Max ||
                                      kinds[j] == ReductionKind::Min);
    candidates.push_back(useResult ? Value(generic.getResult(j)) : init.get());
    candidateMaps.push_back(generic.getMatchingIndexingMap(&init));
  }
  SmallVector<unsigned> seedIndex(numInits, ~0u);
  for (unsigned j = 0; j < numInits; ++j)
    if (resultAdjoints[j]) {
      seedIndex[j] = candidates.size();
      candidates.push_back(resultAdjoints[j]);
      candidateMaps.push_back(
          generic.getMatchingIndexingMap(&generic.getDpsInitsMutable()[j]));
    }

  auto block = std::make_unique<Block>();
  for (Value candidate : candidates)
    block->addArgument(getElementTypeOrSelf(candidate.getType()), loc);
  BlockArgument outAcc = block->addArgument(elementType, loc);

  OpBuilder nb(ctx); // The block is detached: no region to take it from.
  nb.setInsertionPointToEnd(block.get());
  IRMapping mapping;
  DenseSet<Value> accumulators;
  for (unsigned i = 0; i < numInputs; ++i)
    mapping.map(body.getArgument(i), block->getArgument(i));
  for (unsigned j = 0; j < numInits; ++j) {
    BlockArgument acc = body.getArgument(numInputs + j);
    BlockArgument stand = block->getArgument(numInputs + j);
    if (!hasReduction) {
      mapping.map(acc, stand); // the init, read elementwise
    } else if (kinds[j] == ReductionKind::Max ||
               kinds[j] == ReductionKind::Min) {
      mapping.map(acc, stand); // the final result
      accumulators.insert(stand);
    } else {
      // Sums (and outputs not differentiated): the accumulator does not
      // change the derivative of the terms; it stands for zero.
      Value zero = arith::ConstantOp::create(
          nb, loc, cast<TypedAttr>(nb.getZeroAttr(acc.getType())));
      mapping.map(acc, zero);
    }
  }
  for (Operation &op : body.without_terminator())
    nb.clone(op, mapping);

  // Reverse mode over the copied body, seeded by the result adjoints.
  Value target = mapping.lookupOrDefault(bodyValue);
  DenseSet<Value> bodyActive{target};
  for (Operation &op : *block) {
    if (llvm::any_of(op.getOperands(),
                     [&](Value v) { return bodyActive.contains(v); }))
      for (Value r : op.getResults())
        if (isa<FloatType>(r.getType()))
          bodyActive.insert(r);
  }
  DenseMap<Value, Value> bodyAdjoints;
  auto bodyAccumulate = [&](Value v, Value d) {
    auto it = bodyAdjoints.find(v);
    if (it == bodyAdjoints.end())
      bodyAdjoints[v] = d;
    else
      it->second = arith::AddFOp::create(nb, loc, it->second, d);
  };
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  for (unsigned j = 0; j < numInits; ++j) {
    if (seedIndex[j] == ~0u)
      continue;
    Value yielded = mapping.lookupOrDefault(yield.getOperand(j));
    if (bodyActive.contains(yielded))
      bodyAccumulate(yielded, block->getArgument(seedIndex[j]));
  }
  SmallVector<Operation *> copied;
  for (Operation &op : *block)
    copied.push_back(&op);
  auto bodyIsActive = [&](Value v) { return bodyActive.contains(v); };
  ScalarReverse rev{nb, bodyIsActive, bodyAccumulate, &accumulators};
  for (Operation *op : llvm::reverse(copied)) {
    if (op->getNumResults() != 1)
      continue;
    Value dz = bodyAdjoints.lookup(op->getResult(0));
    if (!dz || llvm::none_of(op->getOperands(),
                             [&](Value v) { return bodyActive.contains(v); }))
      continue;
    if (failed(differentiateScalarOp(rev, op, dz)))
      return mlir::emitError(op->getLoc(),
                             "internal error: no rule for '")
             << op->getName() << "'";
  }
  Value contribution = bodyAdjoints.lookup(target);
  if (!contribution)
    return success(); // The operand does not reach the differentiated results.
  // Without reductions every element of the adjoint is written once; with
  // them, the contributions are summed into zeros.
  bool reduces = llvm::is_contained(iterators, utils::IteratorType::reduction);
  Value total = reduces ? arith::AddFOp::create(nb, loc, outAcc, contribution)
                        : contribution;
  linalg::YieldOp::create(nb, loc, total);

  // Drop the dead part of the copied forward body, then unused inputs,
  // keeping enough inputs for every loop dimension to have a size.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*block)))
    if (isOpTriviallyDead(&op))
      op.erase();
  llvm::SmallBitVector covered(numLoops);
  auto cover = [&](AffineMap m) {
    for (AffineExpr expr : m.getResults())
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        covered.set(dim.getPosition());
  };
  cover(outMap);
  SmallVector<bool> keep(candidates.size());
  for (unsigned i = 0; i < candidates.size(); ++i) {
    keep[i] = !block->getArgument(i).use_empty();
    if (keep[i])
      cover(candidateMaps[i]);
  }
  for (unsigned i = 0; i < candidates.size() && !covered.all(); ++i) {
    if (keep[i] || !isa<RankedTensorType>(candidates[i].getType()))
      continue;
    bool adds = false;
    for (AffineExpr expr : candidateMaps[i].getResults())
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        adds |= !covered.test(dim.getPosition());
    if (adds) {
      keep[i] = true;
      cover(candidateMaps[i]);
    }
  }
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  llvm::BitVector erase(block->getNumArguments());
  for (unsigned i = 0; i < candidates.size(); ++i) {
    if (keep[i]) {
      inputs.push_back(candidates[i]);
      maps.push_back(candidateMaps[i]);
    } else {
      erase.set(i);
    }
  }
  maps.push_back(outMap);
  block->eraseArguments(erase);

  Value init = reduces ? zeros(b, loc, outType)
                       : tensor::EmptyOp::create(b, loc, outType.getShape(),
                                                 elementType);
  auto adjoint = linalg::GenericOp::create(b, loc, TypeRange{outType}, inputs,
                                           ValueRange{init}, maps, iterators);
  adjoint.getRegion().push_back(block.release());
  Value result = adjoint.getResult(0);

  if (window) {
    FailureOr<Value> folded =
        foldWindow(b, loc, result, primalTensor, *window, loopRanges);
    if (failed(folded))
      return mlir::emitError(loc, "internal error: the window ")
             << str(map) << " of '" << name(generic)
             << "' reads outside its operand";
    result = *folded;
  } else if (primalTensor && keptPositions.size() !=
                                 static_cast<size_t>(primalTensor.getRank())) {
    // Re-insert the unit dimensions the operand indexed by constants.
    SmallVector<ReassociationIndices> reassociation;
    if (!keptPositions.empty()) {
      int64_t rank = primalTensor.getRank();
      for (size_t k = 0; k < keptPositions.size(); ++k) {
        int64_t begin = k == 0 ? 0 : keptPositions[k];
        int64_t end =
            k + 1 < keptPositions.size() ? keptPositions[k + 1] : rank;
        ReassociationIndices group;
        for (int64_t p = begin; p < end; ++p)
          group.push_back(p);
        reassociation.push_back(group);
      }
    }
    result = tensor::ExpandShapeOp::create(b, loc, primalTensor, result,
                                           reassociation);
  } else if (!primalTensor) {
    result = tensor::ExtractOp::create(b, loc, result, ValueRange{});
  }
  accumulate(primal, result);
  return success();
}

LogicalResult Differentiator::run(ArrayRef<unsigned> wrt,
                                  std::optional<ArrayRef<unsigned>> seeded) {
  Block &block = func.getBody().front();
  auto ret = cast<func::ReturnOp>(block.getTerminator());
  // Cotangent arguments go after the original ones, so `wrt` still indexes
  // the original arguments.
  SmallVector<BlockArgument> cotangents;
  if (seeded) {
    for (unsigned r : *seeded) {
      unsigned index = func.getNumArguments();
      if (failed(func.insertArgument(index, ret.getOperand(r).getType(),
                                     DictionaryAttr(), ret.getLoc())))
        return failure();
      cotangents.push_back(block.getArgument(index));
    }
  }
  SmallVector<Value> roots;
  if (seeded)
    for (unsigned r : *seeded)
      roots.push_back(ret.getOperand(r));
  else
    roots.push_back(ret.getOperand(0));
  analyze(wrt, roots);

  bool ok = true;
  for (Operation &op : block.without_terminator())
    ok &= succeeded(check(&op));
  if (!ok)
    return failure();

  b.setInsertionPoint(ret);
  Location loc = ret.getLoc();
  if (seeded) {
    for (auto [r, cotangent] : llvm::zip_equal(*seeded, cotangents))
      if (isActive(ret.getOperand(r)))
        accumulate(ret.getOperand(r), cotangent);
  } else {
    Value loss = ret.getOperand(0);
    Type lossType = loss.getType();
    Value seed;
    if (auto tensor = dyn_cast<RankedTensorType>(lossType))
      seed = arith::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(
              tensor, b.getFloatAttr(tensor.getElementType(), 1.0)));
    else
      seed = floatConstant(b, loc, lossType, 1.0);
    if (isActive(loss))
      adjoints[loss] = seed;
  }

  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops)) {
    if (!needsDerivative(op))
      continue;
    if (llvm::none_of(op->getResults(),
                      [&](Value v) { return adjoints.contains(v); }))
      continue;
    if (failed(differentiate(op)))
      return failure();
  }

  SmallVector<Value> results(ret.getOperands());
  SmallVector<Type> resultTypes(ret.getOperandTypes());
  for (unsigned i : wrt) {
    Value arg = block.getArgument(i);
    Value grad = adjoints.lookup(arg);
    if (!grad)
      grad = zeros(b, loc, arg.getType());
    results.push_back(grad);
    resultTypes.push_back(arg.getType());
  }
  func::ReturnOp::create(b, loc, results);
  ret.erase();
  func.setFunctionType(FunctionType::get(
      func.getContext(), block.getArgumentTypes(), resultTypes));
  return success();
}

FailureOr<func::FuncOp>
mlir::pp::buildGradient(func::FuncOp func, StringRef gradName,
                        ArrayRef<unsigned> wrt,
                        std::optional<ArrayRef<unsigned>> seeded) {
  auto module = func->getParentOfType<ModuleOp>();
  bool effectsOk = true;
  for (Operation &op : func.getBody().front().without_terminator())
    effectsOk &= succeeded(checkEffects(&op, op.getName().getStringRef()));
  if (!effectsOk)
    return failure();
  for (Type resultType : func.getResultTypes()) {
    auto shaped = dyn_cast<ShapedType>(resultType);
    if (shaped && !(isa<RankedTensorType>(shaped) && shaped.hasStaticShape()))
      return func.emitError("'@")
             << func.getSymName() << "' returns " << str(resultType)
             << "; dynamic shapes are not supported, give the model static "
                "shapes";
  }

  auto grad = func.clone();
  grad.setSymName(gradName);
  grad.removeResAttrsAttr();
  SymbolTable symbols(module);
  symbols.insert(grad, std::next(Block::iterator(func)));

  DenseMap<Operation *, std::string> originalNames;
  NormalizeLinalgOptions normalize;
  normalize.elementwiseToLinalg = true;
  normalize.generalizeConvolutions = true;
  normalize.originalNames = &originalNames;
  if (failed(normalizeLinalg(grad, normalize))) {
    grad.erase();
    return failure();
  }

  Differentiator differentiator(grad, originalNames);
  if (failed(differentiator.run(wrt, seeded))) {
    grad.erase();
    return failure();
  }
  return grad;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct PPAutodiffPass : mlir::pp::impl::PPAutodiffPassBase<PPAutodiffPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// Whether `type` is a scalar loss: a float, or a float tensor with one
/// element.
static bool isScalarLoss(Type type) {
  if (isa<FloatType>(type))
    return true;
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType()) &&
         tensor.hasStaticShape() && tensor.getNumElements() == 1;
}

void PPAutodiffPass::runOnOperation() {
  ModuleOp module = getOperation();
  auto func = lookupFunction(module, functionName);
  if (!func)
    return signalPassFailure();
  if (func.isExternal()) {
    mlir::emitError(func.getLoc(), "'@")
        << functionName << "' is a declaration; it needs a body";
    return signalPassFailure();
  }
  if (!func.getBody().hasOneBlock()) {
    mlir::emitError(func.getLoc(), "'@")
        << functionName
        << "' has several blocks; control flow is not supported (one block "
           "of ops on tensors)";
    return signalPassFailure();
  }
  FunctionType type = func.getFunctionType();
  if (cotangents &&
      llvm::none_of(type.getResults(), isDifferentiableType)) {
    InFlightDiagnostic diag = mlir::emitError(func.getLoc(), "'@")
                              << functionName
                              << "' has no float result to take cotangents "
                                 "for; it returns (";
    diag << typeList(type.getResults()) << ")";
    return signalPassFailure();
  }
  if (!cotangents &&
      (type.getNumResults() != 1 || !isScalarLoss(type.getResult(0)))) {
    InFlightDiagnostic diag = mlir::emitError(func.getLoc(), "'@")
                              << functionName
                              << "' must return one scalar loss (a float, "
                                 "tensor<f32> or a one-element float "
                                 "tensor), but returns (";
    diag << typeList(type.getResults()) << "); append a loss first (pp-append-loss), or take the gradients "
            "of the results as arguments (cotangents=true)";
    return signalPassFailure();
  }
  std::string gradName = functionName + "_grad";
  if (module.lookupSymbol(gradName)) {
    mlir::emitError(func.getLoc(), "cannot create '@")
        << gradName << "': a symbol of that name already exists";
    return signalPassFailure();
  }

  SmallVector<unsigned> wrtArgs;
  if (wrt.empty()) {
    for (auto [i, argType] : llvm::enumerate(type.getInputs()))
      if (isFloatTensor(argType))
        wrtArgs.push_back(i);
  } else {
    for (int64_t i : wrt) {
      if (i < 0 || i >= static_cast<int64_t>(type.getNumInputs())) {
        mlir::emitError(func.getLoc(), "'wrt' names argument ")
            << i << ", but '@" << functionName << "' has "
            << type.getNumInputs() << " arguments";
        return signalPassFailure();
      }
      if (!isDifferentiableType(type.getInput(i))) {
        mlir::emitError(func.getLoc(), "'wrt' names argument ")
            << i << " of type " << type.getInput(i)
            << ", which is not a float or float tensor";
        return signalPassFailure();
      }
      if (llvm::is_contained(wrtArgs, static_cast<unsigned>(i))) {
        mlir::emitError(func.getLoc(), "'wrt' names argument ")
            << i << " twice";
        return signalPassFailure();
      }
      wrtArgs.push_back(i);
    }
    llvm::sort(wrtArgs);
  }
  for (unsigned i : wrtArgs) {
    auto tensor = dyn_cast<RankedTensorType>(type.getInput(i));
    if (tensor && !tensor.hasStaticShape()) {
      mlir::emitError(func.getLoc(), "argument ")
          << i << " of '@" << functionName << "' has a dynamic shape ("
          << str(tensor)
          << "); dynamic shapes are not supported, give the model static "
             "shapes";
      return signalPassFailure();
    }
  }

  std::optional<SmallVector<unsigned>> seeded;
  if (cotangents) {
    seeded.emplace();
    for (auto [r, resultType] : llvm::enumerate(type.getResults()))
      if (isDifferentiableType(resultType))
        seeded->push_back(r);
  }
  if (failed(buildGradient(func, gradName, wrtArgs,
                           seeded ? std::optional<ArrayRef<unsigned>>(*seeded)
                                  : std::nullopt)))
    return signalPassFailure();
}
