//===- CheckDifferentiable.cpp - pp-check-differentiable ------------------===//
//
// Reports, at their locations, the operations of a model that pp-autodiff
// cannot differentiate, and what to do about each. See
// docs/ModelConventions.md.
//
//===----------------------------------------------------------------------===//

#include "PrepareModel.h"
#include "pp/Model/Passes.h"
#include "pp/Support/Diagnostics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir::pp {
#define GEN_PASS_DEF_PPCHECKDIFFERENTIABLEPASS
#include "pp/Model/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {
struct PPCheckDifferentiablePass
    : mlir::pp::impl::PPCheckDifferentiablePassBase<PPCheckDifferentiablePass> {
  using Base::Base;
  void runOnOperation() override;

  /// Checks the body of `func`, adding the private functions it calls to
  /// `worklist`. Returns the number of unsupported ops.
  int64_t checkFunction(func::FuncOp func,
                        llvm::SetVector<func::FuncOp> &worklist);
  /// Checks one op of a function body (not its regions).
  bool checkOp(Operation *op, llvm::SetVector<func::FuncOp> &worklist);
  bool checkCall(func::CallOp call, llvm::SetVector<func::FuncOp> &worklist);
  bool checkLinalg(linalg::LinalgOp op);

  /// Set by runOnOperation (the pass itself must stay copyable).
  SymbolTableCollection *symbolTables = nullptr;
};

InFlightDiagnostic cannot(Operation *op) {
  return mlir::emitError(op->getLoc())
         << "cannot differentiate '" << op->getName() << "'";
}

bool hasTensorResult(TypeRange types) {
  return llvm::any_of(types, [](Type type) { return isa<TensorType>(type); });
}
} // namespace

bool PPCheckDifferentiablePass::checkCall(
    func::CallOp call, llvm::SetVector<func::FuncOp> &worklist) {
  StringRef name = call.getCallee();
  auto callee = symbolTables->lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  // (The func.call verifier guarantees that the callee is a func.func.)
  if (!callee || callee.isExternal()) {
    if (!hasTensorResult(call.getResultTypes()))
      cannot(call) << " to @" << name
                   << ": it has side effects (an external function without "
                      "tensor results, such as a timer or a print); run "
                      "pp-strip-instrumentation first";
    else
      cannot(call) << " to @" << name
                   << ": it is an external declaration without a body; "
                      "define @"
                   << name << " in the module as a private function";
    return false;
  }
  if (!callee.isPrivate()) {
    cannot(call) << " to public @" << name
                 << ": only calls to private functions are differentiated "
                    "through; make @"
                 << name << " private or inline it (--inline)";
    return false;
  }
  worklist.insert(callee);
  return true;
}

bool PPCheckDifferentiablePass::checkLinalg(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics()) {
    cannot(op) << " on buffers: pp-autodiff works on tensors; run it before "
                  "bufferization";
    return false;
  }
  bool ok = true;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    std::string why;
    if (succeeded(
            mlir::pp::decomposeWindowMap(map, input->get().getType(), &why)))
      continue;
    cannot(op) << " yet: the indexing map of input #"
               << input->getOperandNumber() << ", " << AffineMapAttr::get(map)
               << ", is not supported: " << why
               << "; supported: " << mlir::pp::kSupportedIndexingMaps
               << "; rewrite the op or add a rule to pp-autodiff";
    ok = false;
    break;
  }
  for (Operation &bodyOp : *op.getBlock()) {
    if (isa<linalg::YieldOp, linalg::IndexOp>(bodyOp) ||
        isa<arith::ArithDialect, math::MathDialect>(bodyOp.getDialect()))
      continue;
    // A gather: an element of a tensor from above (its adjoint a
    // scatter-add, docs/Autodiff.md, "Gathers").
    if (auto extract = dyn_cast<tensor::ExtractOp>(bodyOp);
        extract &&
        !op->isAncestor(extract.getTensor().getParentBlock()->getParentOp()))
      continue;
    mlir::emitError(bodyOp.getLoc())
        << "cannot differentiate '" << bodyOp.getName() << "' in the body of '"
        << op->getName()
        << "': a linalg body may hold only arith and math ops, linalg.index, "
           "tensor.extract of a tensor from above (a gather) and "
           "linalg.yield";
    ok = false;
  }
  return ok;
}

bool PPCheckDifferentiablePass::checkOp(
    Operation *op, llvm::SetVector<func::FuncOp> &worklist) {
  if (isa<func::ReturnOp>(op))
    return true;
  if (auto call = dyn_cast<func::CallOp>(op))
    return checkCall(call, worklist);
  Dialect *dialect = op->getDialect();
  if (isa_and_present<arith::ArithDialect, math::MathDialect>(dialect))
    return true;
  if (isa<tensor::EmptyOp, tensor::ReshapeOp, tensor::ExpandShapeOp,
          tensor::CollapseShapeOp, tensor::ExtractSliceOp,
          tensor::InsertSliceOp, tensor::PadOp, tensor::ConcatOp,
          tensor::CastOp, tensor::ExtractOp, tensor::InsertOp,
          tensor::FromElementsOp>(op))
    return true;
  if (isa_and_present<tensor::TensorDialect>(dialect)) {
    cannot(op) << " yet: the supported tensor ops are empty, reshape, "
                  "expand_shape, collapse_shape, extract_slice, insert_slice, "
                  "pad, concat, cast, extract, insert and from_elements; "
                  "rewrite it with those or add a rule to pp-autodiff";
    return false;
  }
  if (isa<linalg::SoftmaxOp>(op)) {
    if (!cast<linalg::SoftmaxOp>(op).hasPureTensorSemantics()) {
      cannot(op) << " on buffers: pp-autodiff works on tensors; run it "
                    "before bufferization";
      return false;
    }
    return true;
  }
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return checkLinalg(linalgOp);
  if (isa_and_present<linalg::LinalgDialect>(dialect)) {
    cannot(op) << " yet: it is not a structured linalg op (no indexing maps); "
                  "add a rule to pp-autodiff or rewrite it as linalg.generic";
    return false;
  }
  StringRef ns = op->getName().getDialectNamespace();
  if (ns == "tosa") {
    cannot(op) << ": TOSA is differentiated after lowering; run "
                  "pp-prepare-model (or tosa-to-linalg-named, tosa-to-linalg, "
                  "tosa-to-arith, tosa-to-tensor) first";
    return false;
  }
  if (ns == "llvm") {
    cannot(op) << ": LLVM dialect ops are not differentiated; if it only "
                  "feeds instrumentation (timers, prints), run "
                  "pp-strip-instrumentation first";
    return false;
  }
  if (ns == "scf" || ns == "cf" || op->getNumSuccessors() > 0) {
    cannot(op) << ": control flow is not supported; the model must be one "
                  "block of ops on tensors (unroll loops, turn branches into "
                  "arith.select)";
    return false;
  }
  cannot(op) << ": it is outside the supported set (linalg on tensors, "
                "tensor reshapes, slices, pad and concat, arith, math, calls "
                "to private functions); see docs/ModelConventions.md";
  return false;
}

int64_t PPCheckDifferentiablePass::checkFunction(
    func::FuncOp func, llvm::SetVector<func::FuncOp> &worklist) {
  int64_t failures = 0;
  for (Block &block : func.getBody())
    for (Operation &op : block)
      if (!checkOp(&op, worklist))
        ++failures;
  return failures;
}

void PPCheckDifferentiablePass::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTableCollection tables;
  symbolTables = &tables;
  llvm::SetVector<func::FuncOp> worklist;
  if (!functionName.empty()) {
    auto func = lookupFunction(module, functionName);
    if (!func)
      return signalPassFailure();
    if (func.isExternal()) {
      mlir::emitError(func.getLoc())
          << "@" << functionName
          << " is a declaration; it has no body to check";
      return signalPassFailure();
    }
    worklist.insert(func);
  } else {
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && !func.isPrivate())
        worklist.insert(func);
  }
  int64_t failures = 0;
  for (size_t i = 0; i < worklist.size(); ++i)
    failures += checkFunction(worklist[i], worklist);
  if (failures)
    signalPassFailure();
}

/// Whether `map` indexes an operand of type `type` by distinct loop
/// dimensions (a projected permutation), except that unit dimensions may be
/// indexed by the constant 0 (the broadcasts TOSA lowers to).
bool mlir::pp::isProjectedPermutationOrUnit(AffineMap map, Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  llvm::SmallBitVector seen(map.getNumDims());
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      if (seen.test(dim.getPosition()))
        return false;
      seen.set(dim.getPosition());
      continue;
    }
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    if (!constant || constant.getValue() != 0 || !shaped ||
        shaped.getDimSize(i) != 1)
      return false;
  }
  return true;
}

const char *const mlir::pp::kSupportedIndexingMaps =
    "every result a sum of loop dimensions times positive constants plus a "
    "non-negative constant, no loop dimension used twice in the map "
    "(projected permutations, and the sliding windows of convolutions and "
    "pooling such as d1 * 2 + d4 * 3 + 1)";

/// Adds `scale * expr` to `index`. Fails, describing the offending part in
/// `why`, on anything but sums of dimensions times constants and constants.
static bool addLinear(AffineExpr expr, int64_t scale,
                      mlir::pp::WindowIndex &index, std::string &why) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    for (auto &[d, coefficient] : index.terms)
      if (d == dim.getPosition()) {
        coefficient += scale;
        return true;
      }
    index.terms.push_back({dim.getPosition(), scale});
    return true;
  }
  if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
    index.constant += scale * constant.getValue();
    return true;
  }
  if (isa<AffineSymbolExpr>(expr)) {
    why = "uses a symbol";
    return false;
  }
  auto binary = cast<AffineBinaryOpExpr>(expr);
  switch (binary.getKind()) {
  case AffineExprKind::Add:
    return addLinear(binary.getLHS(), scale, index, why) &&
           addLinear(binary.getRHS(), scale, index, why);
  case AffineExprKind::Mul:
    if (auto c = dyn_cast<AffineConstantExpr>(binary.getRHS()))
      return addLinear(binary.getLHS(), scale * c.getValue(), index, why);
    if (auto c = dyn_cast<AffineConstantExpr>(binary.getLHS()))
      return addLinear(binary.getRHS(), scale * c.getValue(), index, why);
    why = "multiplies by a non-constant";
    return false;
  case AffineExprKind::Mod:
    why = "uses 'mod'";
    return false;
  case AffineExprKind::FloorDiv:
    why = "uses 'floordiv'";
    return false;
  case AffineExprKind::CeilDiv:
    why = "uses 'ceildiv'";
    return false;
  default:
    why = "is not an affine sum";
    return false;
  }
}

FailureOr<SmallVector<mlir::pp::WindowIndex>>
mlir::pp::decomposeWindowMap(AffineMap map, Type type, std::string *reason) {
  auto shaped = dyn_cast<ShapedType>(type);
  SmallVector<WindowIndex> indices;
  llvm::SmallBitVector seen(map.getNumDims());
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    auto fail = [&, i = i, expr = expr](const Twine &why) {
      if (reason) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << "result #" << i << " (" << expr << ") " << why;
        *reason = text;
      }
      return failure();
    };
    WindowIndex index;
    std::string why;
    if (!addLinear(expr, 1, index, why))
      return fail(why);
    llvm::erase_if(index.terms, [](auto &term) { return term.second == 0; });
    for (auto [dim, coefficient] : index.terms) {
      if (coefficient < 0)
        return fail("has a negative coefficient");
      if (seen.test(dim))
        return fail("uses loop dimension d" + Twine(dim) +
                    ", which another part of the map uses too");
      seen.set(dim);
    }
    if (index.constant < 0)
      return fail("has a negative constant");
    if (index.terms.empty() &&
        (!shaped || !shaped.hasRank() || shaped.isDynamicDim(i) ||
         index.constant >= shaped.getDimSize(i)))
      return fail("is a constant outside a static dimension");
    indices.push_back(std::move(index));
  }
  return indices;
}
