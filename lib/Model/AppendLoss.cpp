//===- AppendLoss.cpp - pp-append-loss ------------------------------------===//
//
// Adds `@<function>_loss`: a copy of a model function that returns a scalar
// loss of the model's output against a target argument, in linalg on tensors
// so that pp-autodiff can differentiate it. See docs/ModelConventions.md.
//
//===----------------------------------------------------------------------===//

#include "pp/Model/Passes.h"
#include "pp/Support/Diagnostics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <limits>

namespace mlir::pp {
#define GEN_PASS_DEF_PPAPPENDLOSSPASS
#include "pp/Model/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {
enum class LossKind { MSE, CrossEntropy };

struct PPAppendLossPass
    : mlir::pp::impl::PPAppendLossPassBase<PPAppendLossPass> {
  using Base::Base;
  void runOnOperation() override;
};

/// Builds the loss ops: the output `y` against `target`, accumulated in the
/// float type `acc`.
class LossBuilder {
public:
  LossBuilder(OpBuilder &b, Location loc, FloatType acc)
      : b(b), loc(loc), acc(acc) {}

  Value mse(Value y, Value target);
  Value crossEntropy(Value logits, Value labels);

private:
  /// A tensor of `shape` x acc filled with `value`.
  Value filled(ArrayRef<int64_t> shape, double value) {
    Value empty = tensor::EmptyOp::create(b, loc, shape, acc);
    Value scalar =
        arith::ConstantOp::create(b, loc, b.getFloatAttr(acc, value));
    return linalg::FillOp::create(b, loc, ValueRange{scalar}, ValueRange{empty})
        .getResult(0);
  }
  /// `v` converted to the accumulation type (extended if narrower).
  Value toAcc(OpBuilder &nb, Value v) {
    if (v.getType() == acc)
      return v;
    return arith::ExtFOp::create(nb, loc, acc, v);
  }
  Value constant(OpBuilder &nb, double value) {
    return arith::ConstantOp::create(nb, loc, nb.getFloatAttr(acc, value));
  }
  /// A linalg.generic with one output.
  Value generic(ValueRange inputs, Value init, ArrayRef<AffineMap> maps,
                ArrayRef<utils::IteratorType> iterators,
                function_ref<Value(OpBuilder &, ValueRange)> body) {
    auto op = linalg::GenericOp::create(
        b, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, maps,
        iterators, [&](OpBuilder &nb, Location, ValueRange args) {
          linalg::YieldOp::create(nb, loc, body(nb, args));
        });
    return op.getResult(0);
  }
  /// `numerator / denominator`, two 0-d tensors, as a 0-d linalg.generic.
  Value divide(Value numerator, Value denominator) {
    AffineMap scalar = AffineMap::get(b.getContext());
    Value init = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{}, acc);
    return generic({numerator, denominator}, init, {scalar, scalar, scalar}, {},
                   [&](OpBuilder &nb, ValueRange args) -> Value {
                     return arith::DivFOp::create(nb, loc, args[0], args[1]);
                   });
  }

  OpBuilder &b;
  Location loc;
  FloatType acc;
};

Value LossBuilder::mse(Value y, Value target) {
  auto type = cast<RankedTensorType>(y.getType());
  int64_t rank = type.getRank();
  MLIRContext *ctx = b.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap toScalar = AffineMap::get(rank, 0, {}, ctx);
  SmallVector<utils::IteratorType> reduction(rank,
                                             utils::IteratorType::reduction);
  // sum((y - target)^2)
  Value sum =
      generic({y, target}, filled({}, 0.0), {id, id, toScalar}, reduction,
              [&](OpBuilder &nb, ValueRange args) -> Value {
                Value diff = arith::SubFOp::create(nb, loc, toAcc(nb, args[0]),
                                                   toAcc(nb, args[1]));
                Value square = arith::MulFOp::create(nb, loc, diff, diff);
                return arith::AddFOp::create(nb, loc, args[2], square);
              });
  // / N
  AffineMap scalar = AffineMap::get(ctx);
  Value init = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{}, acc);
  double count = static_cast<double>(type.getNumElements());
  return generic({sum}, init, {scalar, scalar}, {},
                 [&](OpBuilder &nb, ValueRange args) -> Value {
                   return arith::DivFOp::create(nb, loc, args[0],
                                                constant(nb, count));
                 });
}

Value LossBuilder::crossEntropy(Value logits, Value labels) {
  auto type = cast<RankedTensorType>(logits.getType());
  int64_t batch = type.getDimSize(0), classes = type.getDimSize(1);
  MLIRContext *ctx = b.getContext();
  AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx);
  AffineMap bc = AffineMap::get(2, 0, {d0, d1}, ctx);
  AffineMap bOfBC = AffineMap::get(2, 0, {d0}, ctx);
  AffineMap row = AffineMap::get(1, 0, {d0}, ctx);
  AffineMap rowToScalar = AffineMap::get(1, 0, {}, ctx);
  SmallVector<utils::IteratorType> rowReduction = {
      utils::IteratorType::parallel, utils::IteratorType::reduction};
  SmallVector<utils::IteratorType> batchReduction = {
      utils::IteratorType::reduction};

  // m[b] = max_c y[b, c]
  Value rowMax = generic(
      {logits}, filled({batch}, -std::numeric_limits<double>::infinity()),
      {bc, bOfBC}, rowReduction, [&](OpBuilder &nb, ValueRange args) -> Value {
        return arith::MaximumFOp::create(nb, loc, args[1], toAcc(nb, args[0]));
      });
  // s[b] = sum_c exp(y[b, c] - m[b])
  Value sumExp =
      generic({logits, rowMax}, filled({batch}, 0.0), {bc, bOfBC, bOfBC},
              rowReduction, [&](OpBuilder &nb, ValueRange args) -> Value {
                Value shifted =
                    arith::SubFOp::create(nb, loc, toAcc(nb, args[0]), args[1]);
                Value e = math::ExpOp::create(nb, loc, shifted);
                return arith::AddFOp::create(nb, loc, args[2], e);
              });
  // p[b] = y[b, label[b]] (0 when the label is out of range)
  Value picked = generic(
      {logits, labels}, filled({batch}, 0.0), {bc, bOfBC, bOfBC}, rowReduction,
      [&](OpBuilder &nb, ValueRange args) -> Value {
        Value c = linalg::IndexOp::create(nb, loc, 1);
        Value label =
            arith::IndexCastOp::create(nb, loc, nb.getIndexType(), args[1]);
        Value hit =
            arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::eq, c, label);
        Value value = arith::SelectOp::create(nb, loc, hit, toAcc(nb, args[0]),
                                              constant(nb, 0.0));
        return arith::AddFOp::create(nb, loc, args[2], value);
      });
  // Whether label[b] is in [0, C).
  Type labelType = cast<RankedTensorType>(labels.getType()).getElementType();
  auto valid = [&](OpBuilder &nb, Value label) -> Value {
    Value zero =
        arith::ConstantOp::create(nb, loc, nb.getIntegerAttr(labelType, 0));
    Value limit = arith::ConstantOp::create(
        nb, loc, nb.getIntegerAttr(labelType, classes));
    Value nonNegative =
        arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::sge, label, zero);
    Value below =
        arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::slt, label, limit);
    return arith::AndIOp::create(nb, loc, nonNegative, below);
  };
  // total = sum_b valid(b) ? log(s[b]) + m[b] - p[b] : 0
  Value total =
      generic({sumExp, rowMax, picked, labels}, filled({}, 0.0),
              {row, row, row, row, rowToScalar}, batchReduction,
              [&](OpBuilder &nb, ValueRange args) -> Value {
                Value logSum = math::LogOp::create(nb, loc, args[0]);
                Value lse = arith::AddFOp::create(nb, loc, logSum, args[1]);
                Value nll = arith::SubFOp::create(nb, loc, lse, args[2]);
                Value term = arith::SelectOp::create(
                    nb, loc, valid(nb, args[3]), nll, constant(nb, 0.0));
                return arith::AddFOp::create(nb, loc, args[4], term);
              });
  // count = number of rows with a valid label
  Value count =
      generic({labels}, filled({}, 0.0), {row, rowToScalar}, batchReduction,
              [&](OpBuilder &nb, ValueRange args) -> Value {
                Value one = arith::SelectOp::create(nb, loc, valid(nb, args[0]),
                                                    constant(nb, 1.0),
                                                    constant(nb, 0.0));
                return arith::AddFOp::create(nb, loc, args[1], one);
              });
  return divide(total, count);
}

/// Whether `type` is a single float: a float, or a float tensor of one
/// element.
bool isScalarFloat(Type type) {
  if (isa<FloatType>(type))
    return true;
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() && tensor.getNumElements() == 1 &&
         isa<FloatType>(tensor.getElementType());
}
} // namespace

void PPAppendLossPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();
  if (functionName.empty()) {
    emitRequiredOptionError(module.getLoc(), "function");
    return signalPassFailure();
  }
  LossKind lossKind;
  if (kind == "mse") {
    lossKind = LossKind::MSE;
  } else if (kind == "cross-entropy") {
    lossKind = LossKind::CrossEntropy;
  } else {
    if (kind.empty())
      mlir::emitError(module.getLoc(), "option 'kind' is "
                                       "required: mse or cross-entropy");
    else
      mlir::emitError(module.getLoc(), "unknown kind '")
          << kind << "': expected mse or cross-entropy";
    return signalPassFailure();
  }
  auto func = lookupFunction(module, functionName);
  if (!func)
    return signalPassFailure();
  if (func.isExternal()) {
    mlir::emitError(func.getLoc(), "@")
        << functionName << " is a declaration; it has no body to copy";
    return signalPassFailure();
  }
  ArrayRef<Type> results = func.getResultTypes();
  if (results.size() != 1) {
    mlir::emitError(func.getLoc(), "@")
        << functionName << " has " << results.size()
        << " results; a loss needs exactly one (the output or the logits)";
    return signalPassFailure();
  }
  Type outputType = results.front();
  if (isScalarFloat(outputType)) {
    mlir::emitRemark(func.getLoc(), "@")
        << functionName << " already returns a scalar (" << outputType
        << "); taking it as the loss, no loss added";
    return;
  }
  Type element = getElementTypeOrSelf(outputType);
  if (element.isIntOrIndex()) {
    mlir::emitError(func.getLoc(), "@")
        << functionName << " returns " << outputType
        << ", an integer result; a loss needs a float output";
    return signalPassFailure();
  }
  auto outputTensor = dyn_cast<RankedTensorType>(outputType);
  if (!outputTensor || !isa<FloatType>(element)) {
    mlir::emitError(func.getLoc(), "@")
        << functionName << " returns " << outputType
        << "; a loss needs a ranked tensor of floats";
    return signalPassFailure();
  }
  if (!outputTensor.hasStaticShape()) {
    mlir::emitError(func.getLoc(), "@")
        << functionName << " returns " << outputType
        << ", of dynamic shape; the loss needs a static shape";
    return signalPassFailure();
  }
  if (lossKind == LossKind::CrossEntropy && outputTensor.getRank() != 2) {
    mlir::emitError(func.getLoc(), "cross-entropy needs "
                                   "logits of rank 2 (batch x classes), but @")
        << functionName << " returns " << outputType;
    return signalPassFailure();
  }
  std::string lossName = functionName + "_loss";
  if (module.lookupSymbol(lossName)) {
    mlir::emitError(func.getLoc(), "a symbol named @")
        << lossName << " already exists";
    return signalPassFailure();
  }

  // The loss function: a copy of the model with the target appended.
  auto floatElement = cast<FloatType>(element);
  FloatType acc = floatElement.getWidth() >= 32
                      ? floatElement
                      : cast<FloatType>(Float32Type::get(ctx));
  Type targetType = lossKind == LossKind::MSE
                        ? outputType
                        : RankedTensorType::get({outputTensor.getDimSize(0)},
                                                IntegerType::get(ctx, 32));
  Type lossType = RankedTensorType::get({}, acc);

  func::FuncOp loss = func.clone();
  loss.setSymName(lossName);
  SymbolTable(module).insert(loss, std::next(Block::iterator(func)));
  unsigned numArgs = loss.getNumArguments();
  auto dataAttrs = DictionaryAttr::get(
      ctx,
      {NamedAttribute(StringAttr::get(ctx, "pp.data"), UnitAttr::get(ctx))});
  if (failed(
          loss.insertArgument(numArgs, targetType, dataAttrs, func.getLoc()))) {
    loss.emitError("cannot add the target argument");
    return signalPassFailure();
  }
  Value target = loss.getArgument(numArgs);

  SmallVector<func::ReturnOp> returns;
  loss.walk([&](func::ReturnOp op) {
    if (op->getParentOp() == loss)
      returns.push_back(op);
  });
  for (func::ReturnOp ret : returns) {
    OpBuilder b(ret);
    LossBuilder builder(b, ret.getLoc(), acc);
    Value y = ret.getOperand(0);
    Value value = lossKind == LossKind::MSE ? builder.mse(y, target)
                                            : builder.crossEntropy(y, target);
    ret->setOperands(ValueRange{value});
  }
  loss.setFunctionType(
      FunctionType::get(ctx, loss.getArgumentTypes(), {lossType}));
  loss.removeResAttrsAttr();
  loss->setAttr("pp.loss", StringAttr::get(ctx, kind));
}
