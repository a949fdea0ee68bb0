//===- SplitOps.cpp - pp-split-ops: ops too large for one stage -----------===//
//
// pp-partition cuts a model in block order, so a stage holds whole ops and
// no cut balances a model whose single ops are each more than a stage's
// share of the work. This pass splits such an op into pieces along one of
// its parallel loops (the pieces compute disjoint slices of the result) so
// the cut can fall between them. It is the static, unrolled form of tiling
// one loop (the slices are those MLIR's TilingInterface would take); each
// piece is again a linalg op that pp-autodiff differentiates as before.
//
//===----------------------------------------------------------------------===//

#include "pp/Model/Passes.h"

#include "pp/Model/CostModel.h"
#include "pp/Model/Partition.h"
#include "pp/Support/Diagnostics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <optional>

namespace mlir::pp {
#define GEN_PASS_DEF_PPSPLITOPSPASS
#include "pp/Model/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {

/// Operands made by all-parallel producers are split with the op up to
/// this depth (a transposed weight: one; a broadcast of a transposed bias:
/// two); deeper ones are sliced.
constexpr int kMaxProducerDepth = 2;

/// The position at which `map` has loop `dim` as a plain `d<dim>` result,
/// std::nullopt when it does not use the loop; failure when it uses it in
/// a compound expression (a convolution's `oh + kh`) or more than once.
FailureOr<std::optional<unsigned>> positionOf(AffineMap map, unsigned dim) {
  std::optional<unsigned> position;
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    if (auto d = dyn_cast<AffineDimExpr>(expr); d && d.getPosition() == dim) {
      if (position)
        return failure();
      position = i;
    } else if (expr.isFunctionOfDim(dim)) {
      return failure();
    }
  }
  return position;
}

/// Whether `op` can be computed in slices along loop `dim`: a parallel loop
/// of static range that every operand indexes at most once, as a plain
/// index, and that the result indexes (so the slices are disjoint parts of
/// it); the body does not read loop indices.
bool canSplitAlong(linalg::LinalgOp op, unsigned dim) {
  if (op.getIteratorTypesArray()[dim] != utils::IteratorType::parallel ||
      op.hasIndexSemantics())
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    FailureOr<std::optional<unsigned>> position =
        positionOf(op.getMatchingIndexingMap(&operand), dim);
    if (failed(position))
      return false;
    if (op.isDpsInit(&operand) && !*position)
      return false;
  }
  return true;
}

/// The loop to split `op` along: the parallel loop of largest static range
/// (ties: the outermost) it can be split along, std::nullopt if none has a
/// range of at least 2.
std::optional<unsigned> chooseLoop(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  std::optional<unsigned> best;
  for (unsigned d = 0; d < ranges.size(); ++d) {
    if (ShapedType::isDynamic(ranges[d]) || ranges[d] < 2 ||
        !canSplitAlong(op, d))
      continue;
    if (!best || ranges[d] > ranges[*best])
      best = d;
  }
  return best;
}

/// Builds the pieces of split ops.
class Splitter {
public:
  explicit Splitter(OpBuilder &builder) : b(builder) {}

  /// Replaces `op` by `pieces` pieces along loop `dim` and erases it (and
  /// the producers split with it).
  void split(linalg::LinalgOp op, unsigned dim, int64_t pieces);

private:
  OpBuilder &b;

  /// The slice [offset, offset + size) of `value` along its dimension
  /// `position`, for the op `user` being split: a smaller splat or
  /// tensor.empty, a piece of an all-parallel producer that only `user`
  /// uses, or a tensor.extract_slice.
  Value sliceOf(Value value, unsigned position, int64_t offset, int64_t size,
                Operation *user, int depth);
  /// `op` computed on the slice [offset, offset + size) of loop `dim`.
  Operation *piece(linalg::LinalgOp op, unsigned dim, int64_t offset,
                   int64_t size, int depth);
};

} // namespace

static RankedTensorType slicedType(Value value, unsigned position,
                                   int64_t size) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[position] = size;
  return RankedTensorType::get(shape, type.getElementType());
}

/// Static offsets, sizes and unit strides selecting [offset, offset + size)
/// of dimension `position` of a tensor of `shape`.
static void sliceBounds(OpBuilder &b, ArrayRef<int64_t> shape,
                        unsigned position, int64_t offset, int64_t size,
                        SmallVectorImpl<OpFoldResult> &offsets,
                        SmallVectorImpl<OpFoldResult> &sizes,
                        SmallVectorImpl<OpFoldResult> &strides) {
  for (auto [i, extent] : llvm::enumerate(shape)) {
    offsets.push_back(b.getIndexAttr(i == position ? offset : 0));
    sizes.push_back(b.getIndexAttr(i == position ? size : extent));
    strides.push_back(b.getIndexAttr(1));
  }
}

Value Splitter::sliceOf(Value value, unsigned position, int64_t offset,
                        int64_t size, Operation *user, int depth) {
  RankedTensorType type = slicedType(value, position, size);
  Location loc = value.getLoc();
  if (auto constant = value.getDefiningOp<arith::ConstantOp>())
    if (auto splat = dyn_cast<SplatElementsAttr>(constant.getValue()))
      return arith::ConstantOp::create(
          b, loc, type,
          SplatElementsAttr::get(type, splat.getSplatValue<Attribute>()));
  if (value.getDefiningOp<tensor::EmptyOp>())
    return tensor::EmptyOp::create(b, loc, type.getShape(),
                                   type.getElementType());
  auto producer = value.getDefiningOp<linalg::LinalgOp>();
  if (producer && depth < kMaxProducerDepth && producer->getNumResults() == 1 &&
      producer.getNumLoops() == producer.getNumParallelLoops() &&
      llvm::all_of(value.getUsers(), [&](Operation *u) { return u == user; })) {
    AffineMap map =
        producer.getIndexingMapMatchingResult(cast<OpResult>(value));
    if (auto d = dyn_cast<AffineDimExpr>(map.getResult(position));
        d && canSplitAlong(producer, d.getPosition()))
      return piece(producer, d.getPosition(), offset, size, depth + 1)
          ->getResult(0);
  }
  SmallVector<OpFoldResult> offsets, sizes, strides;
  sliceBounds(b, cast<RankedTensorType>(value.getType()).getShape(), position,
              offset, size, offsets, sizes, strides);
  return tensor::ExtractSliceOp::create(b, loc, type, value, offsets, sizes,
                                        strides);
}

Operation *Splitter::piece(linalg::LinalgOp op, unsigned dim, int64_t offset,
                           int64_t size, int depth) {
  // One slice per (value, dimension): an op may read a value twice, along
  // different dimensions (A + A^T) or not at all in one of them.
  DenseMap<std::pair<Value, unsigned>, Value> slices;
  SmallVector<Value> operands;
  for (OpOperand &operand : op->getOpOperands()) {
    std::optional<unsigned> position =
        *positionOf(op.getMatchingIndexingMap(&operand), dim);
    if (!position) {
      operands.push_back(operand.get());
      continue;
    }
    Value &slice = slices[{operand.get(), *position}];
    if (!slice)
      slice = sliceOf(operand.get(), *position, offset, size, op, depth);
    operands.push_back(slice);
  }
  Operation *clone = b.clone(*op);
  clone->setOperands(operands);
  for (OpResult result : clone->getResults())
    result.setType(clone
                       ->getOperand(op.getDpsInits().getBeginOperandIndex() +
                                    result.getResultNumber())
                       .getType());
  return clone;
}

void Splitter::split(linalg::LinalgOp op, unsigned dim, int64_t pieces) {
  int64_t range = op.getStaticLoopRanges()[dim];
  OpOperand *init = op.getDpsInitOperand(0);
  unsigned position = **positionOf(op.getMatchingIndexingMap(init), dim);
  llvm::SetVector<Operation *> producers;
  for (Value operand : op->getOperands())
    if (Operation *def = operand.getDefiningOp())
      producers.insert(def);

  // The pieces cover the result: they are written into a fresh tensor.
  b.setInsertionPoint(op);
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  Value result = tensor::EmptyOp::create(b, op.getLoc(), resultType.getShape(),
                                         resultType.getElementType());
  int64_t offset = 0;
  for (int64_t i = 0; i < pieces; ++i) {
    // Sizes differ by at most one, the larger ones first.
    int64_t size = range / pieces + (i < range % pieces ? 1 : 0);
    Operation *part = piece(op, dim, offset, size, /*depth=*/0);
    SmallVector<OpFoldResult> offsets, sizes, strides;
    sliceBounds(b, cast<RankedTensorType>(result.getType()).getShape(),
                position, offset, size, offsets, sizes, strides);
    result = tensor::InsertSliceOp::create(b, op.getLoc(), part->getResult(0),
                                           result, offsets, sizes, strides);
    offset += size;
  }
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
  // Producers split with the op lost their only user; erase them, and
  // theirs, when nothing else uses them.
  // (An op is queued once at a time and never looked at once erased.)
  llvm::SmallPtrSet<Operation *, 8> erased;
  while (!producers.empty()) {
    Operation *def = producers.pop_back_val();
    if (erased.contains(def) || !isOpTriviallyDead(def))
      continue;
    for (Value operand : def->getOperands())
      if (Operation *inner = operand.getDefiningOp())
        producers.insert(inner);
    erased.insert(def);
    def->erase();
  }
}

/// Whether every shaped operand and result of `op` has a static shape.
static bool hasStaticShapes(Operation *op) {
  auto isStatic = [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return !shaped || shaped.hasStaticShape();
  };
  return llvm::all_of(op->getOperandTypes(), isStatic) &&
         llvm::all_of(op->getResultTypes(), isStatic);
}

namespace {
struct PPSplitOpsPass : mlir::pp::impl::PPSplitOpsPassBase<PPSplitOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp func = lookupFunction(module, functionName);
    if (!func)
      return signalPassFailure();
    if (!(maxFraction > 0.0 && maxFraction <= 1.0)) {
      emitError(module.getLoc())
          << "option 'max-fraction' is required and must be in (0, 1], got "
          << maxFraction.getValue();
      return signalPassFailure();
    }
    if (func.isExternal() || !func.getBody().hasOneBlock()) {
      func.emitError("pp-split-ops needs a function with one block");
      return signalPassFailure();
    }
    // The ops pp-partition places (ops on parameters only, such as a
    // weight's transpose, are recomputed in each stage, not placed).
    double total = 0;
    SmallVector<linalg::LinalgOp> candidates;
    for (Operation *op : partitionWorkOps(func)) {
      total += flopsOf(op);
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
        if (linalgOp.hasPureTensorSemantics() && op->getNumResults() == 1 &&
            !op->hasAttr("pp.split_point") && hasStaticShapes(op))
          candidates.push_back(linalgOp);
    }
    double limit = maxFraction * total;
    OpBuilder builder(module.getContext());
    Splitter splitter(builder);
    for (linalg::LinalgOp op : candidates) {
      double flops = flopsOf(op);
      if (total <= 0 || flops <= limit)
        continue;
      std::optional<unsigned> dim = chooseLoop(op);
      if (!dim)
        continue;
      int64_t range = op.getStaticLoopRanges()[*dim];
      int64_t pieces = std::min<int64_t>(
          range, static_cast<int64_t>(std::ceil(flops / limit)));
      op->emitRemark(llvm::formatv("split into {0} pieces along loop d{1} "
                                   "(range {2}): {3:E2} FLOP, {4:F1}% of @{5}",
                                   pieces, *dim, range, flops,
                                   100.0 * flops / total, func.getSymName())
                         .str());
      splitter.split(op, *dim, pieces);
    }
  }
};
} // namespace
