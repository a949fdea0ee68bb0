//===- ParameterInit.cpp - Synthetic initial values of parameters ---------===//

#include "pp/Driver/ParameterInit.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

using namespace mlir;
using namespace mlir::pp::driver;

std::string InitRule::str() const {
  switch (kind) {
  case FanIn:
    return "fan-in " + std::to_string(fanIn);
  case One:
    return "ones";
  case Zero:
    return "zeros";
  case Uniform:
    break;
  }
  return "uniform [-1, 1)";
}

namespace {
/// What the uses of one value say, strongest first.
enum class Use { None, Additive, Multiplicative, Positive };

/// Walks the uses of a parameter through layout changes and calls.
class InitAnalysis {
public:
  explicit InitAnalysis(Operation *symbolScope) : scope(symbolScope) {}

  /// The fan-in of the first contraction `v` reaches through layout
  /// changes; meanwhile records in `use` what elementwise code does with it.
  std::optional<int64_t> visit(Value v);
  Use use = Use::None;

private:
  void note(Use u) {
    if (static_cast<int>(u) > static_cast<int>(use))
      use = u;
  }
  std::optional<int64_t> visitLinalg(linalg::LinalgOp op, OpOperand &operand);
  /// What the scalar body of an elementwise op does with `arg`.
  void classifyScalar(Value arg, int depth, bool positiveOnly);

  Operation *scope;
  llvm::SmallPtrSet<Value, 16> visited;
};
} // namespace

/// Whether `op` only moves elements: its body yields block arguments.
static bool movesOnly(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (!body || body->getOperations().size() != 1)
    return false;
  return llvm::all_of(body->getTerminator()->getOperands(),
                      [](Value v) { return isa<BlockArgument>(v); });
}

/// Whether `op` only rounds its input to a narrower float and back
/// (pp-round-to-bf16): the value flows on to the contraction it feeds.
static bool roundsOnly(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (!body || body->getOperations().size() != 3 || op.getNumDpsInputs() != 1)
    return false;
  auto trunc = dyn_cast<arith::TruncFOp>(body->front());
  auto ext = dyn_cast<arith::ExtFOp>(*std::next(body->begin()));
  return trunc && ext && ext.getIn() == trunc.getResult() &&
         isa<BlockArgument>(trunc.getIn()) &&
         body->getTerminator()->getOperand(0) == ext.getResult();
}

std::optional<int64_t> InitAnalysis::visitLinalg(linalg::LinalgOp op,
                                                 OpOperand &operand) {
  if (!op.isDpsInput(&operand))
    return std::nullopt;
  AffineMap map = op.getMatchingIndexingMap(&operand);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t fanIn = 1;
  bool reduces = false;
  for (AffineExpr e : map.getResults())
    for (unsigned d = 0; d < iterators.size(); ++d)
      if (e.isFunctionOfDim(d) &&
          iterators[d] == utils::IteratorType::reduction) {
        reduces = true;
        if (ranges[d] != ShapedType::kDynamic)
          fanIn *= ranges[d];
      }
  if (reduces) {
    // A contraction multiplies this operand with another; a plain sum
    // (a reduction with one input) is no fan-in.
    if (op.getNumDpsInputs() >= 2)
      return fanIn;
    note(Use::Additive);
    return std::nullopt;
  }
  if (movesOnly(op) || roundsOnly(op)) {
    for (OpResult r : op->getResults())
      if (std::optional<int64_t> f = visit(r))
        return f;
    return std::nullopt;
  }
  if (op.getBlock())
    classifyScalar(op.getMatchingBlockArgument(&operand), 0, false);
  return std::nullopt;
}

void InitAnalysis::classifyScalar(Value arg, int depth, bool positiveOnly) {
  if (depth > 8)
    return;
  for (OpOperand &use : arg.getUses()) {
    Operation *user = use.getOwner();
    if (isa<math::SqrtOp, math::RsqrtOp, math::LogOp, math::Log1pOp,
            math::PowFOp>(user) ||
        (isa<arith::DivFOp>(user) && use.getOperandNumber() == 1)) {
      note(Use::Positive);
      continue;
    }
    if (positiveOnly && user->hasTrait<OpTrait::IsTerminator>())
      continue;
    if (isa<arith::MulFOp, arith::DivFOp>(user)) {
      if (!positiveOnly)
        note(Use::Multiplicative);
      continue;
    }
    // A sum is a shift of the other operand (x - mean, y + bias), unless it
    // feeds a root or a divisor (var + eps): follow it for that alone.
    bool sum = isa<arith::AddFOp, arith::SubFOp>(user);
    if (sum && !positiveOnly)
      note(Use::Additive);
    if (user->getNumResults() == 1 && !user->hasTrait<OpTrait::IsTerminator>())
      classifyScalar(user->getResult(0), depth + 1, positiveOnly || sum);
  }
}

std::optional<int64_t> InitAnalysis::visit(Value v) {
  if (!visited.insert(v).second)
    return std::nullopt;
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    std::optional<int64_t> found;
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(user)) {
      found = visitLinalg(linalgOp, use);
    } else if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
                   tensor::ReshapeOp, tensor::CastOp, tensor::ExtractSliceOp>(
                   user)) {
      found = visit(user->getResult(0));
    } else if (auto insert = dyn_cast<tensor::InsertSliceOp>(user);
               insert && use.getOperandNumber() == 0) {
      // A piece written into a larger tensor (pp-split-ops).
      found = visit(insert.getResult());
    } else if (auto call = dyn_cast<func::CallOp>(user)) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          scope, call.getCalleeAttr());
      if (callee && !callee.isExternal())
        found = visit(callee.getArgument(use.getOperandNumber()));
    } else if (isa<arith::MulFOp>(user)) {
      note(Use::Multiplicative);
    } else if (isa<arith::AddFOp, arith::SubFOp>(user)) {
      note(Use::Additive);
    } else if (isa<math::SqrtOp, math::RsqrtOp, math::LogOp>(user)) {
      note(Use::Positive);
    }
    if (found)
      return found;
  }
  return std::nullopt;
}

InitRule mlir::pp::driver::initRuleFor(func::FuncOp fn, unsigned argument) {
  InitAnalysis analysis(fn->getParentOp() ? fn->getParentOp()
                                          : fn.getOperation());
  InitRule rule;
  if (std::optional<int64_t> fanIn = analysis.visit(fn.getArgument(argument))) {
    rule.kind = InitRule::FanIn;
    rule.fanIn = std::max<int64_t>(*fanIn, 1);
    return rule;
  }
  switch (analysis.use) {
  case Use::Positive:
  case Use::Multiplicative:
    rule.kind = InitRule::One;
    break;
  case Use::Additive:
    rule.kind = InitRule::Zero;
    break;
  case Use::None:
    rule.kind = InitRule::Uniform;
    break;
  }
  return rule;
}
