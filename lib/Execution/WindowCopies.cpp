//===- WindowCopies.cpp - vector copies of im2col's column matrices -------===//
//
// pp-im2col copies a convolution's window input into a column matrix with a
// linalg.generic whose input map has windows (`oh + kh`, `ow + kw`): not a
// projected permutation, so the vectorizing tiler (CPULowering.cpp) would
// leave it to scalar loops, which took half as long as the convolution's
// GEMMs on OpenBLAS (bench/README.md, "Convolutions on the Zen 4"). Tiled
// with extent 1 in every loop but the output's innermost one, each tile is
// a copy of one contiguous run: one vector read and one vector write.
//
//===----------------------------------------------------------------------===//

#include "CPULowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

/// Whether `expr` is loop `dim` or a sum of loop `dim` and another loop.
static bool isDimOrDimPlusLoop(AffineExpr expr, unsigned dim) {
  if (auto d = dyn_cast<AffineDimExpr>(expr))
    return d.getPosition() == dim;
  auto sum = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!sum || sum.getKind() != AffineExprKind::Add)
    return false;
  auto lhs = dyn_cast<AffineDimExpr>(sum.getLHS());
  auto rhs = dyn_cast<AffineDimExpr>(sum.getRHS());
  return lhs && rhs && (lhs.getPosition() == dim) != (rhs.getPosition() == dim);
}

std::optional<unsigned>
mlir::pp::exec::detail::windowCopyVectorDim(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1 || !op.hasPureTensorSemantics() ||
      op.getNumParallelLoops() != op.getNumLoops())
    return std::nullopt;
  for (Value v : op->getOperands()) {
    auto shaped = dyn_cast<RankedTensorType>(v.getType());
    if (!shaped || !shaped.hasStaticShape())
      return std::nullopt;
  }
  Block &body = generic.getRegion().front();
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  if (!yield || body.getOperations().size() != 1 ||
      yield.getNumOperands() != 1 || yield.getOperand(0) != body.getArgument(0))
    return std::nullopt;
  Type elem = getElementTypeOrSelf(generic.getDpsInits()[0].getType());
  if (elem != getElementTypeOrSelf(generic.getDpsInputs()[0].getType()) ||
      !elem.isIntOrFloat() || elem.getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  AffineMap out = generic.getIndexingMapsArray()[1];
  AffineMap in = generic.getIndexingMapsArray()[0];
  if (!out.isProjectedPermutation() || out.getNumResults() == 0 ||
      in.getNumResults() == 0)
    return std::nullopt;
  unsigned dim = cast<AffineDimExpr>(out.getResults().back()).getPosition();
  // The vector loop runs along the input's innermost dimension (a
  // contiguous run) and nowhere else.
  if (!isDimOrDimPlusLoop(in.getResults().back(), dim))
    return std::nullopt;
  for (AffineExpr e : in.getResults().drop_back())
    if (e.isFunctionOfDim(dim))
      return std::nullopt;
  return dim;
}

/// The one dimension of `type` that is not 1 is its last: its extent.
static std::optional<int64_t> runLength(Type type) {
  auto shaped = cast<RankedTensorType>(type);
  if (!shaped.hasStaticShape())
    return std::nullopt;
  ArrayRef<int64_t> shape = shaped.getShape();
  if (shape.empty() ||
      llvm::any_of(shape.drop_back(), [](int64_t n) { return n != 1; }))
    return std::nullopt;
  return shape.back();
}

LogicalResult
mlir::pp::exec::detail::vectorizeWindowCopyTile(RewriterBase &rewriter,
                                                Operation *tiled) {
  auto op = dyn_cast<linalg::GenericOp>(tiled);
  if (!op || !windowCopyVectorDim(op))
    return failure();
  Value in = op.getDpsInputs()[0], out = op.getDpsInits()[0];
  std::optional<int64_t> n = runLength(in.getType());
  if (!n || runLength(out.getType()) != n || *n < 2)
    return failure();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto vectorType = VectorType::get({*n}, getElementTypeOrSelf(out.getType()));
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  auto rank = [](Value v) { return cast<ShapedType>(v.getType()).getRank(); };
  SmallVector<Value> inIndices(rank(in), zero), outIndices(rank(out), zero);
  Value run =
      vector::TransferReadOp::create(rewriter, loc, vectorType, in, inIndices,
                                     std::nullopt, ArrayRef<bool>{true});
  auto write = vector::TransferWriteOp::create(
      rewriter, loc, run, out, outIndices, ArrayRef<bool>{true});
  rewriter.replaceOp(op, write.getResult());
  return success();
}
