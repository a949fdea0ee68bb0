//===- LiftParameters.cpp - pp-lift-parameters ----------------------------===//
//
// Turns the large float constants of a model function (its weights) into
// function arguments marked `pp.parameter`, keeping their values in an
// initializer function. See docs/ModelConventions.md.
//
//===----------------------------------------------------------------------===//

#include "pp/Model/Passes.h"
#include "pp/Support/Diagnostics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::pp {
#define GEN_PASS_DEF_PPLIFTPARAMETERSPASS
#include "pp/Model/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {
constexpr llvm::StringLiteral kParameterAttr = "pp.parameter";
constexpr llvm::StringLiteral kDataAttr = "pp.data";
constexpr llvm::StringLiteral kInitializerAttr = "pp.initializer";

struct PPLiftParametersPass
    : mlir::pp::impl::PPLiftParametersPassBase<PPLiftParametersPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  /// Reads options 'parameters' and 'data' into the argument numbers of
  /// `func` to mark as each; reports indices out of range or in both.
  LogicalResult readMarkedArguments(func::FuncOp func,
                                    llvm::DenseSet<int64_t> &asParameter,
                                    llvm::DenseSet<int64_t> &asData);
  /// The constants of `func` to lift, in the order they appear. Warns about
  /// weights in the private helpers it calls, which stay constant.
  SmallVector<arith::ConstantOp> collectWeights(func::FuncOp func);
  /// The func.call sites of `func`, checked before anything changes: only
  /// they can be given the new arguments. Also refuses an `initName` that
  /// is taken.
  FailureOr<SmallVector<func::CallOp>>
  collectCalls(ModuleOp module, func::FuncOp func, StringRef initName);
};
} // namespace

/// Whether `constant` holds weights to lift: a dense or dense_resource float
/// tensor of static shape with at least `minElements` elements (splats only
/// with `includeSplats`).
static bool isWeight(arith::ConstantOp constant, int64_t minElements,
                     bool includeSplats) {
  auto type = dyn_cast<RankedTensorType>(constant.getType());
  if (!type || !type.hasStaticShape() || !isa<FloatType>(type.getElementType()))
    return false;
  if (type.getNumElements() < minElements)
    return false;
  Attribute value = constant.getValue();
  if (auto dense = dyn_cast<DenseElementsAttr>(value))
    return includeSplats || !dense.isSplat();
  return isa<DenseResourceElementsAttr>(value);
}

LogicalResult
PPLiftParametersPass::readMarkedArguments(func::FuncOp func,
                                          llvm::DenseSet<int64_t> &asParameter,
                                          llvm::DenseSet<int64_t> &asData) {
  int64_t numArgs = func.getNumArguments();
  for (auto [list, set, name] :
       {std::make_tuple(&parameterIndices, &asParameter, "parameters"),
        std::make_tuple(&dataIndices, &asData, "data")}) {
    for (int64_t index : *list) {
      if (index < 0 || index >= numArgs) {
        mlir::emitError(func.getLoc(), "argument ")
            << index << " in option '" << name << "' is out of range: @"
            << functionName << " has " << numArgs << " arguments";
        return failure();
      }
      set->insert(index);
    }
  }
  for (int64_t index : asParameter) {
    if (asData.contains(index)) {
      mlir::emitError(func.getLoc(), "argument ")
          << index << " is listed both in 'parameters' and in 'data'";
      return failure();
    }
  }
  return success();
}

SmallVector<arith::ConstantOp>
PPLiftParametersPass::collectWeights(func::FuncOp func) {
  // Constants inside ops isolated from above (nested functions) cannot see
  // the new arguments.
  SmallVector<arith::ConstantOp> weights;
  func.walk([&](arith::ConstantOp constant) {
    if (constant->getParentWithTrait<OpTrait::IsIsolatedFromAbove>() != func)
      return;
    if (isWeight(constant, minElements, includeSplats))
      weights.push_back(constant);
  });

  // Weights in private helpers would silently stay constant: say so.
  SymbolTableCollection symbolTables;
  llvm::DenseSet<Operation *> warned;
  func.walk([&](func::CallOp call) {
    auto callee = symbolTables.lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!callee || callee.isExternal() || callee == func ||
        !warned.insert(callee).second)
      return;
    callee.walk([&](arith::ConstantOp constant) {
      if (isWeight(constant, minElements, includeSplats))
        mlir::emitWarning(constant.getLoc(), "constant ")
            << constant.getType() << " in @" << callee.getSymName()
            << " (called by @" << functionName
            << ") is not lifted and stays fixed; inline the callee first "
               "(--inline) to train it";
    });
  });
  return weights;
}

FailureOr<SmallVector<func::CallOp>>
PPLiftParametersPass::collectCalls(ModuleOp module, func::FuncOp func,
                                   StringRef initName) {
  if (module.lookupSymbol(initName)) {
    mlir::emitError(func.getLoc(), "a symbol named @")
        << initName
        << " already exists; choose the initializer's name with option "
           "'initializer'";
    return failure();
  }
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(func, module);
  if (!uses) {
    mlir::emitError(module.getLoc(), "cannot find every use of @")
        << functionName << " in the module";
    return failure();
  }
  SmallVector<func::CallOp> calls;
  for (const SymbolTable::SymbolUse &use : *uses) {
    auto call = dyn_cast<func::CallOp>(use.getUser());
    if (!call || call.getCalleeAttr() != use.getSymbolRef()) {
      InFlightDiagnostic diag =
          mlir::emitError(use.getUser()->getLoc(),
                          "cannot pass the lifted parameters of @")
          << functionName << " at this use by '" << use.getUser()->getName()
          << "': only func.call sites are updated";
      diag.attachNote(func.getLoc()) << "function defined here";
      return failure();
    }
    calls.push_back(call);
  }
  return calls;
}

/// Creates `initName` after `func`: a function without arguments that
/// returns the values of `weights`, and names it in `func`'s
/// pp.initializer attribute.
static void buildInitializer(func::FuncOp func, StringRef initName,
                             ArrayRef<arith::ConstantOp> weights) {
  OpBuilder builder(func.getContext());
  builder.setInsertionPointAfter(func);
  SmallVector<Type> types;
  for (arith::ConstantOp constant : weights)
    types.push_back(constant.getType());
  auto init = func::FuncOp::create(builder, func.getLoc(), initName,
                                   builder.getFunctionType({}, types));
  builder.setInsertionPointToStart(init.addEntryBlock());
  SmallVector<Value> results;
  for (arith::ConstantOp constant : weights)
    results.push_back(arith::ConstantOp::create(builder, constant.getLoc(),
                                                constant.getValue()));
  func::ReturnOp::create(builder, func.getLoc(), results);
  func->setAttr(kInitializerAttr, FlatSymbolRefAttr::get(init));
}

/// Appends one argument marked pp.parameter to `func` per constant of
/// `weights` (after its `numArgs` arguments), and replaces the constants
/// with them.
static LogicalResult
replaceWithArguments(func::FuncOp func, int64_t numArgs,
                     MutableArrayRef<arith::ConstantOp> weights) {
  MLIRContext *context = func.getContext();
  auto paramAttrs = DictionaryAttr::get(
      context, {NamedAttribute(kParameterAttr, UnitAttr::get(context))});
  for (auto [i, constant] : llvm::enumerate(weights)) {
    if (failed(func.insertArgument(numArgs + i, constant.getType(), paramAttrs,
                                   constant.getLoc()))) {
      constant.emitError("cannot add an argument for this constant");
      return failure();
    }
  }
  for (auto [i, constant] : llvm::enumerate(weights)) {
    constant.replaceAllUsesWith(func.getArgument(numArgs + i));
    constant.erase();
  }
  return success();
}

/// Makes every call of `func` in `calls` pass the lifted `values`: as
/// constants, or inside `func` itself as its new arguments (after its first
/// `numArgs`).
static void passLiftedValues(func::FuncOp func, int64_t numArgs,
                             ArrayRef<func::CallOp> calls,
                             ArrayRef<TypedAttr> values) {
  OpBuilder builder(func.getContext());
  for (func::CallOp call : calls) {
    SmallVector<Value> extra;
    builder.setInsertionPoint(call);
    for (auto [i, value] : llvm::enumerate(values)) {
      if (call->getParentOfType<func::FuncOp>() == func)
        extra.push_back(func.getArgument(numArgs + i));
      else
        extra.push_back(
            arith::ConstantOp::create(builder, call.getLoc(), value));
    }
    call.getOperandsMutable().append(extra);
  }
}

void PPLiftParametersPass::runOnOperation() {
  ModuleOp module = getOperation();
  auto func = lookupFunction(module, functionName);
  if (!func)
    return signalPassFailure();
  if (func.isExternal()) {
    mlir::emitError(func.getLoc(), "@")
        << functionName << " is a declaration; it has no body to lift from";
    return signalPassFailure();
  }
  if (minElements < 1) {
    mlir::emitError(module.getLoc(), "option 'min-elements' must be at "
                                     "least 1, got ")
        << minElements.getValue();
    return signalPassFailure();
  }
  llvm::DenseSet<int64_t> asParameter, asData;
  if (failed(readMarkedArguments(func, asParameter, asData)))
    return signalPassFailure();
  SmallVector<arith::ConstantOp> weights = collectWeights(func);
  std::string initName = initializerName.empty() ? functionName + "_init"
                                                 : std::string(initializerName);
  SmallVector<func::CallOp> calls;
  if (!weights.empty()) {
    FailureOr<SmallVector<func::CallOp>> found =
        collectCalls(module, func, initName);
    if (failed(found))
      return signalPassFailure();
    calls = std::move(*found);
  }

  auto unit = UnitAttr::get(&getContext());
  for (int64_t index : asParameter)
    func.setArgAttr(index, kParameterAttr, unit);
  for (int64_t index : asData)
    func.setArgAttr(index, kDataAttr, unit);
  if (weights.empty())
    return;

  // Initial values first (the constants are erased below).
  int64_t numArgs = func.getNumArguments();
  SmallVector<TypedAttr> values;
  for (arith::ConstantOp constant : weights)
    values.push_back(constant.getValue());
  buildInitializer(func, initName, weights);
  if (failed(replaceWithArguments(func, numArgs, weights)))
    return signalPassFailure();
  // Call sites pass the initial values (or, inside the function itself, the
  // new arguments).
  passLiftedValues(func, numArgs, calls, values);
}
