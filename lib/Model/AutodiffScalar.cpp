//===- AutodiffScalar.cpp - pp-autodiff: scalar (arith/math) rules --------===//
//
// The reverse-mode rules of scalar arith and math ops, shared by the bodies
// of linalg.generic (AutodiffLinalg.cpp) and top-level scalar code
// (Autodiff.cpp). Each rule turns dz, the adjoint of the op's result z, into
// contributions to the adjoints of the active operands.
//
//===----------------------------------------------------------------------===//

#include "AutodiffInternal.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::pp;
using namespace mlir::pp::autodiff;

bool autodiff::isZeroGradientOp(Operation *op) {
  return isa<arith::CmpFOp, arith::FPToSIOp, arith::FPToUIOp, math::IsNaNOp,
             math::IsInfOp, math::IsFiniteOp, math::IsNormalOp, math::FloorOp,
             math::CeilOp, math::RoundOp, math::RoundEvenOp, math::TruncOp>(op);
}

bool autodiff::isSupportedScalarOp(Operation *op) {
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

const char *const autodiff::kSupportedScalarOps =
    "arith.addf, subf, mulf, divf, negf, maximumf, maxnumf, minimumf, "
    "minnumf, select, cmpf, extf, truncf, constant; math.exp, exp2, expm1, "
    "log, log2, log10, log1p, tanh, sqrt, rsqrt, powf, fpowi, erf, erfc, "
    "sin, cos, tan, atan, absf, fma, cbrt, floor, ceil, round, trunc";

namespace {
/// The rules for one scalar op with result `z` and result adjoint `dz`: one
/// `visit` per op kind, each adding the contributions of `dz` to the
/// adjoints of the op's active operands. Adjoints of inactive operands are
/// never built.
class ScalarRules {
public:
  ScalarRules(ScalarReverse &rev, Operation *op, Value dz)
      : rev(rev), b(rev.b), loc(op->getLoc()), z(op->getResult(0)),
        type(z.getType()), dz(dz) {}

  //===--- Arithmetic -----------------------------------------------------===//

  LogicalResult visit(arith::AddFOp o) {
    give(o.getLhs(), [&] { return dz; });
    give(o.getRhs(), [&] { return dz; });
    return success();
  }
  LogicalResult visit(arith::SubFOp o) {
    give(o.getLhs(), [&] { return dz; });
    give(o.getRhs(), [&] { return neg(dz); });
    return success();
  }
  LogicalResult visit(arith::MulFOp o) {
    give(o.getLhs(), [&] { return mul(dz, o.getRhs()); });
    give(o.getRhs(), [&] { return mul(dz, o.getLhs()); });
    return success();
  }
  LogicalResult visit(arith::DivFOp o) {
    // z = x / y: dx = dz / y, dy = -dz * z / y.
    give(o.getLhs(), [&] { return div(dz, o.getRhs()); });
    give(o.getRhs(), [&] { return neg(div(mul(dz, z), o.getRhs())); });
    return success();
  }
  LogicalResult visit(arith::NegFOp o) {
    give(o.getOperand(), [&] { return neg(dz); });
    return success();
  }
  LogicalResult visit(math::FmaOp o) {
    give(o.getA(), [&] { return mul(dz, o.getB()); });
    give(o.getB(), [&] { return mul(dz, o.getA()); });
    give(o.getC(), [&] { return dz; });
    return success();
  }
  LogicalResult visit(math::AbsFOp o) {
    give(o.getOperand(), [&]() -> Value {
      Value negative = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                             o.getOperand(), cst(0.0));
      return select(negative, neg(dz), dz);
    });
    return success();
  }

  //===--- Max, min, select and float conversions -------------------------===//

  /// max/min: the winner `w` (>= for max, <= for min) takes dz; on ties the
  /// first operand wins unless it is a reduction accumulator.
  LogicalResult extremum(Value lhs, Value rhs, bool isMax) {
    bool swap = rev.accumulators && rev.accumulators->contains(lhs);
    Value w = swap ? rhs : lhs, o = swap ? lhs : rhs;
    Value wins = arith::CmpFOp::create(
        b, loc, isMax ? arith::CmpFPredicate::OGE : arith::CmpFPredicate::OLE,
        w, o);
    give(w, [&] { return select(wins, dz, cst(0.0)); });
    give(o, [&] { return select(wins, cst(0.0), dz); });
    return success();
  }
  LogicalResult visit(arith::SelectOp o) {
    if (!isa<IntegerType>(o.getCondition().getType()))
      return failure();
    give(o.getTrueValue(),
         [&] { return select(o.getCondition(), dz, cst(0.0)); });
    give(o.getFalseValue(),
         [&] { return select(o.getCondition(), cst(0.0), dz); });
    return success();
  }
  LogicalResult visit(arith::ExtFOp o) {
    give(o.getIn(), [&]() -> Value {
      return arith::TruncFOp::create(b, loc, o.getIn().getType(), dz);
    });
    return success();
  }
  LogicalResult visit(arith::TruncFOp o) {
    give(o.getIn(), [&]() -> Value {
      return arith::ExtFOp::create(b, loc, o.getIn().getType(), dz);
    });
    return success();
  }

  //===--- Exponentials and logarithms ------------------------------------===//

  LogicalResult visit(math::ExpOp o) {
    give(o.getOperand(), [&] { return mul(dz, z); });
    return success();
  }
  LogicalResult visit(math::Exp2Op o) {
    give(o.getOperand(), [&] { return mul(dz, mul(z, cst(M_LN2))); });
    return success();
  }
  LogicalResult visit(math::ExpM1Op o) {
    give(o.getOperand(), [&] { return mul(dz, add(z, cst(1.0))); });
    return success();
  }
  LogicalResult visit(math::LogOp o) {
    give(o.getOperand(), [&] { return div(dz, o.getOperand()); });
    return success();
  }
  LogicalResult visit(math::Log2Op o) {
    give(o.getOperand(),
         [&] { return div(dz, mul(o.getOperand(), cst(M_LN2))); });
    return success();
  }
  LogicalResult visit(math::Log10Op o) {
    give(o.getOperand(),
         [&] { return div(dz, mul(o.getOperand(), cst(M_LN10))); });
    return success();
  }
  LogicalResult visit(math::Log1pOp o) {
    give(o.getOperand(),
         [&] { return div(dz, add(o.getOperand(), cst(1.0))); });
    return success();
  }

  //===--- Powers and roots -----------------------------------------------===//

  LogicalResult visit(math::SqrtOp o) {
    give(o.getOperand(), [&] { return div(mul(dz, cst(0.5)), z); });
    return success();
  }
  LogicalResult visit(math::RsqrtOp o) {
    // z = x^-1/2: dz/dx = -z / (2x).
    give(o.getOperand(),
         [&] { return mul(dz, div(mul(cst(-0.5), z), o.getOperand())); });
    return success();
  }
  LogicalResult visit(math::CbrtOp o) {
    // z = x^(1/3): dz/dx = z / (3x).
    give(o.getOperand(),
         [&] { return div(mul(dz, z), mul(cst(3.0), o.getOperand())); });
    return success();
  }
  LogicalResult visit(math::PowFOp o) {
    Value x = o.getLhs(), y = o.getRhs();
    give(x, [&]() -> Value {
      Value p = math::PowFOp::create(b, loc, x, sub(y, cst(1.0)));
      return mul(dz, mul(y, p));
    });
    give(y, [&]() -> Value {
      return mul(dz, mul(z, math::LogOp::create(b, loc, x)));
    });
    return success();
  }
  LogicalResult visit(math::FPowIOp o) {
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
  }

  //===--- Trigonometric, hyperbolic and error functions ------------------===//

  LogicalResult visit(math::TanhOp o) {
    give(o.getOperand(), [&] { return mul(dz, sub(cst(1.0), mul(z, z))); });
    return success();
  }
  LogicalResult visit(math::SinOp o) {
    give(o.getOperand(), [&]() -> Value {
      return mul(dz, math::CosOp::create(b, loc, o.getOperand()));
    });
    return success();
  }
  LogicalResult visit(math::CosOp o) {
    give(o.getOperand(), [&]() -> Value {
      return neg(mul(dz, math::SinOp::create(b, loc, o.getOperand())));
    });
    return success();
  }
  LogicalResult visit(math::TanOp o) {
    give(o.getOperand(), [&] { return mul(dz, add(cst(1.0), mul(z, z))); });
    return success();
  }
  LogicalResult visit(math::AtanOp o) {
    give(o.getOperand(), [&] {
      Value x = o.getOperand();
      return div(dz, add(cst(1.0), mul(x, x)));
    });
    return success();
  }
  LogicalResult visit(math::ErfOp o) {
    // d erf(x)/dx = 2/sqrt(pi) * exp(-x^2).
    give(o.getOperand(), [&]() -> Value {
      Value x = o.getOperand();
      Value e = math::ExpOp::create(b, loc, neg(mul(x, x)));
      return mul(dz, mul(cst(M_2_SQRTPI), e));
    });
    return success();
  }
  LogicalResult visit(math::ErfcOp o) {
    give(o.getOperand(), [&]() -> Value {
      Value x = o.getOperand();
      Value e = math::ExpOp::create(b, loc, neg(mul(x, x)));
      return mul(dz, mul(cst(-M_2_SQRTPI), e));
    });
    return success();
  }

private:
  ScalarReverse &rev;
  OpBuilder &b;
  Location loc;
  /// The op's result and its type.
  Value z;
  Type type;
  /// The adjoint of `z`.
  Value dz;

  /// A constant `v` of the result type.
  Value cst(double v) { return floatConstant(b, loc, type, v); }
  /// x * y.
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  /// x / y.
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  /// x + y.
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  /// x - y.
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  /// -x.
  Value neg(Value x) { return arith::NegFOp::create(b, loc, x); }
  /// c ? t : f.
  Value select(Value c, Value t, Value f) {
    return arith::SelectOp::create(b, loc, c, t, f);
  }
  /// Adds `adjoint()` to the adjoint of `operand` if it is active (and only
  /// then builds it).
  void give(Value operand, llvm::function_ref<Value()> adjoint) {
    if (rev.isActive(operand))
      rev.accumulate(operand, adjoint());
  }
};
} // namespace

LogicalResult autodiff::differentiateScalarOp(ScalarReverse &rev, Operation *op,
                                              Value dz) {
  if (isZeroGradientOp(op) || isa<arith::ConstantOp>(op))
    return success();
  ScalarRules rules(rev, op, dz);
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
            arith::NegFOp, arith::SelectOp, arith::ExtFOp, arith::TruncFOp,
            math::ExpOp, math::Exp2Op, math::ExpM1Op, math::LogOp, math::Log2Op,
            math::Log10Op, math::Log1pOp, math::TanhOp, math::SqrtOp,
            math::RsqrtOp, math::PowFOp, math::FPowIOp, math::ErfOp,
            math::ErfcOp, math::SinOp, math::CosOp, math::TanOp, math::AtanOp,
            math::AbsFOp, math::FmaOp, math::CbrtOp>(
          [&](auto o) { return rules.visit(o); })
      .Case<arith::MaximumFOp, arith::MaxNumFOp>([&](Operation *o) {
        return rules.extremum(o->getOperand(0), o->getOperand(1),
                              /*isMax=*/true);
      })
      .Case<arith::MinimumFOp, arith::MinNumFOp>([&](Operation *o) {
        return rules.extremum(o->getOperand(0), o->getOperand(1),
                              /*isMax=*/false);
      })
      .Default([](Operation *) { return failure(); });
}
