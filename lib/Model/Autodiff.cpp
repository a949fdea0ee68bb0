//===- Autodiff.cpp - pp-autodiff -----------------------------------------===//
//
// Reverse-mode automatic differentiation of a function that returns one
// scalar loss, on linalg-on-tensors (docs/Autodiff.md).
//
// The function is cloned into @<name>_grad; the clone keeps the forward
// computation and appends the reverse sweep, which walks the forward ops in
// reverse and turns the adjoint of each op's results into adjoints of its
// operands. This file holds the pass, buildGradient and the driver of the
// sweep (which values are active, which ops are checked and in what order
// they are differentiated); the rules live in one file per family, behind
// AutodiffInternal.h: scalar arith/math (AutodiffScalar.cpp), linalg.generic
// with its reductions (AutodiffLinalg.cpp), window maps of convolutions and
// pooling (AutodiffWindow.cpp), and tensor ops (AutodiffTensor.cpp).
//
//===----------------------------------------------------------------------===//

#include "AutodiffInternal.h"
#include "PrepareModel.h"
#include "StageFunctions.h"

#include "pp/Model/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h" // the pass's dependent dialects
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <optional>

namespace mlir::pp {
#define GEN_PASS_DEF_PPAUTODIFFPASS
#include "pp/Model/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;
using namespace mlir::pp::autodiff;

//===----------------------------------------------------------------------===//
// Types and small builders
//===----------------------------------------------------------------------===//

bool autodiff::isFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

bool mlir::pp::isDifferentiableType(Type type) {
  return isa<FloatType>(type) || isFloatTensor(type);
}

bool autodiff::isScalarOp(Operation *op) {
  return llvm::all_of(op->getOperandTypes(),
                      [](Type t) { return !isa<ShapedType>(t); }) &&
         llvm::all_of(op->getResultTypes(),
                      [](Type t) { return !isa<ShapedType>(t); });
}

Value autodiff::floatConstant(OpBuilder &b, Location loc, Type type, double v) {
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

/// `n` parallel iterators.
static SmallVector<utils::IteratorType> parallelIterators(int64_t n) {
  return SmallVector<utils::IteratorType>(n, utils::IteratorType::parallel);
}

/// An elementwise sum of tensors of one type `type`: `inputs` are read,
/// `init` is written; the body adds the block arguments at `lhs` and `rhs`.
static Value addGeneric(OpBuilder &b, Location loc, RankedTensorType type,
                        ValueRange inputs, Value init, unsigned lhs,
                        unsigned rhs) {
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps(inputs.size() + 1,
                              b.getMultiDimIdentityMap(rank));
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, inputs, ValueRange{init}, maps,
      parallelIterators(rank),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value sum = arith::AddFOp::create(nb, nloc, args[lhs], args[rhs]);
        linalg::YieldOp::create(nb, nloc, sum);
      });
  return generic.getResult(0);
}

Value mlir::pp::addValues(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  auto tensor = dyn_cast<RankedTensorType>(lhs.getType());
  if (!tensor)
    return arith::AddFOp::create(b, loc, lhs, rhs);
  Value empty = tensor::EmptyOp::create(b, loc, tensor.getShape(),
                                        tensor.getElementType());
  return addGeneric(b, loc, tensor, {lhs, rhs}, empty, 0, 1);
}

Value mlir::pp::addValuesInto(OpBuilder &b, Location loc, Value acc,
                              Value value) {
  // The init (acc) is the block's last argument.
  return addGeneric(b, loc, cast<RankedTensorType>(acc.getType()), {value}, acc,
                    1, 0);
}

bool mlir::pp::isScalarLoss(Type type) {
  if (isa<FloatType>(type))
    return true;
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType()) &&
         tensor.hasStaticShape() && tensor.getNumElements() == 1;
}

Value mlir::pp::lossSeed(OpBuilder &b, Location loc, Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(tensor,
                               b.getFloatAttr(tensor.getElementType(), 1.0)));
  return floatConstant(b, loc, type, 1.0);
}

//===----------------------------------------------------------------------===//
// The differentiator: analysis
//===----------------------------------------------------------------------===//

std::string Differentiator::name(Operation *op) const {
  auto it = originalNames.find(op);
  if (it != originalNames.end())
    return it->second;
  return op->getName().getStringRef().str();
}

void Differentiator::accumulate(Value v, Value d) {
  auto it = adjoints.find(v);
  if (it == adjoints.end()) {
    adjoints[v] = d;
    return;
  }
  it->second = addValues(b, d.getLoc(), it->second, d);
}

void Differentiator::accumulateSlice(Value v, Value d,
                                     ArrayRef<OpFoldResult> offsets,
                                     ArrayRef<OpFoldResult> sizes,
                                     ArrayRef<OpFoldResult> strides) {
  Location loc = d.getLoc();
  auto it = adjoints.find(v);
  if (it == adjoints.end()) {
    Value zero = zeros(b, loc, cast<RankedTensorType>(v.getType()));
    adjoints[v] =
        tensor::InsertSliceOp::create(b, loc, d, zero, offsets, sizes, strides);
    return;
  }
  // old + d on the slice, as accumulate() adds: the same sums, without a
  // full-size zero tensor and addition per slice.
  Value part = tensor::ExtractSliceOp::create(
      b, loc, cast<RankedTensorType>(d.getType()), it->second, offsets, sizes,
      strides);
  it->second = tensor::InsertSliceOp::create(
      b, loc, addValues(b, loc, part, d), it->second, offsets, sizes, strides);
}

SetVector<Value> Differentiator::captured(Operation *op) {
  SetVector<Value> values;
  for (Region &region : op->getRegions())
    getUsedValuesDefinedAbove(region, values);
  return values;
}

bool Differentiator::readsActive(Operation *op) const {
  return llvm::any_of(op->getOperands(),
                      [&](Value v) { return isActive(v); }) ||
         llvm::any_of(captured(op), [&](Value v) { return isActive(v); });
}

void Differentiator::analyze(ArrayRef<unsigned> wrt, ArrayRef<Value> roots) {
  Block &block = func.getBody().front();
  for (unsigned i : wrt)
    active.insert(block.getArgument(i));
  for (Operation &op : block.without_terminator()) {
    if (!readsActive(&op))
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
  return readsActive(op);
}

//===----------------------------------------------------------------------===//
// The differentiator: checks
//===----------------------------------------------------------------------===//

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

/// Whether `type` is shaped but not a statically shaped ranked tensor.
static bool isDynamicShape(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && (!isa<RankedTensorType>(shaped) || !shaped.hasStaticShape());
}

LogicalResult Differentiator::checkStaticShapes(Operation *op) {
  // Dynamic shapes are reported where they appear: at the op producing
  // them (or using a dynamically shaped argument).
  auto report = [&](Value v) {
    mlir::emitError(op->getLoc(), "cannot differentiate '")
        << name(op) << "': dynamic shapes are not supported ("
        << str(v.getType()) << "); give the model static shapes";
    return failure();
  };
  for (Value v : op->getOperands())
    if (isa<BlockArgument>(v) && isDynamicShape(v.getType()))
      return report(v);
  for (Value v : op->getResults())
    if (isDynamicShape(v.getType()))
      return report(v);
  return success();
}

LogicalResult Differentiator::check(Operation *op) {
  if (failed(checkEffects(op, name(op))))
    return failure();

  // Integers (or other non-float values) computed from differentiated
  // values and reaching the loss: fine for comparisons and conversions,
  // which have a zero derivative, but not for bit casts and unknown ops.
  bool activeIn = readsActive(op);
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
  if (failed(checkStaticShapes(op)))
    return failure();
  if (isScalarOp(op) && isSupportedScalarOp(op) && op->getNumResults() == 1)
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

//===----------------------------------------------------------------------===//
// The differentiator: reverse sweep
//===----------------------------------------------------------------------===//

LogicalResult Differentiator::differentiate(Operation *op) {
  if (isScalarOp(op) && isSupportedScalarOp(op) && op->getNumResults() == 1) {
    Value dz = adjointOf(op->getResult(0));
    if (!dz)
      return success();
    auto activeFn = [&](Value v) { return isActive(v); };
    auto accumulateFn = [&](Value v, Value d) { accumulate(v, d); };
    ScalarReverse rev{b, activeFn, accumulateFn};
    return differentiateScalarOp(rev, op, dz);
  }
  if (auto generic = dyn_cast<linalg::GenericOp>(op))
    return differentiateGeneric(generic);
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return differentiateFill(fill);
  return differentiateTensorOp(op);
}

void Differentiator::seed(func::ReturnOp ret,
                          std::optional<ArrayRef<unsigned>> seeded,
                          ArrayRef<BlockArgument> cotangents) {
  if (seeded) {
    for (auto [r, cotangent] : llvm::zip_equal(*seeded, cotangents))
      if (isActive(ret.getOperand(r)))
        accumulate(ret.getOperand(r), cotangent);
    return;
  }
  Value loss = ret.getOperand(0);
  Value one = lossSeed(b, ret.getLoc(), loss.getType());
  if (isActive(loss))
    adjoints[loss] = one;
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
  seed(ret, seeded, cotangents);
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

  // The results, then the gradient of every `wrt` argument.
  Location loc = ret.getLoc();
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

private:
  /// Reports why `func` cannot be differentiated as the options ask, if it
  /// cannot: a declaration, several blocks, results that are not one scalar
  /// loss (or, with cotangents, no float result), or an existing
  /// `gradName`.
  LogicalResult checkFunction(ModuleOp module, func::FuncOp func,
                              StringRef gradName);
  /// The arguments to differentiate with respect to: those of option `wrt`
  /// (checked and sorted), or by default every float tensor argument.
  FailureOr<SmallVector<unsigned>> selectArguments(func::FuncOp func);
};
} // namespace

LogicalResult PPAutodiffPass::checkFunction(ModuleOp module, func::FuncOp func,
                                            StringRef gradName) {
  if (func.isExternal()) {
    mlir::emitError(func.getLoc(), "'@")
        << functionName << "' is a declaration; it needs a body";
    return failure();
  }
  if (!func.getBody().hasOneBlock()) {
    mlir::emitError(func.getLoc(), "'@")
        << functionName
        << "' has several blocks; control flow is not supported (one block "
           "of ops on tensors)";
    return failure();
  }
  FunctionType type = func.getFunctionType();
  if (cotangents && llvm::none_of(type.getResults(), isDifferentiableType)) {
    InFlightDiagnostic diag = mlir::emitError(func.getLoc(), "'@")
                              << functionName
                              << "' has no float result to take cotangents "
                                 "for; it returns (";
    diag << typeList(type.getResults()) << ")";
    return failure();
  }
  if (!cotangents &&
      (type.getNumResults() != 1 || !isScalarLoss(type.getResult(0)))) {
    InFlightDiagnostic diag = mlir::emitError(func.getLoc(), "'@")
                              << functionName
                              << "' must return one scalar loss (a float, "
                                 "tensor<f32> or a one-element float "
                                 "tensor), but returns (";
    diag << typeList(type.getResults())
         << "); append a loss first (pp-append-loss), or take the gradients "
            "of the results as arguments (cotangents=true)";
    return failure();
  }
  if (module.lookupSymbol(gradName)) {
    mlir::emitError(func.getLoc(), "cannot create '@")
        << gradName << "': a symbol of that name already exists";
    return failure();
  }
  return success();
}

FailureOr<SmallVector<unsigned>>
PPAutodiffPass::selectArguments(func::FuncOp func) {
  FunctionType type = func.getFunctionType();
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
        return failure();
      }
      if (!isDifferentiableType(type.getInput(i))) {
        mlir::emitError(func.getLoc(), "'wrt' names argument ")
            << i << " of type " << type.getInput(i)
            << ", which is not a float or float tensor";
        return failure();
      }
      if (llvm::is_contained(wrtArgs, static_cast<unsigned>(i))) {
        mlir::emitError(func.getLoc(), "'wrt' names argument ")
            << i << " twice";
        return failure();
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
      return failure();
    }
  }
  return wrtArgs;
}

void PPAutodiffPass::runOnOperation() {
  ModuleOp module = getOperation();
  auto func = lookupFunction(module, functionName);
  if (!func)
    return signalPassFailure();
  std::string gradName = functionName + "_grad";
  if (failed(checkFunction(module, func, gradName)))
    return signalPassFailure();
  FailureOr<SmallVector<unsigned>> wrtArgs = selectArguments(func);
  if (failed(wrtArgs))
    return signalPassFailure();

  std::optional<SmallVector<unsigned>> seeded;
  if (cotangents) {
    seeded.emplace();
    for (auto [r, resultType] :
         llvm::enumerate(func.getFunctionType().getResults()))
      if (isDifferentiableType(resultType))
        seeded->push_back(r);
  }
  if (failed(buildGradient(func, gradName, *wrtArgs,
                           seeded ? std::optional<ArrayRef<unsigned>>(*seeded)
                                  : std::nullopt)))
    return signalPassFailure();
}
