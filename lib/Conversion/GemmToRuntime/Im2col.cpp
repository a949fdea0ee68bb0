//===- Im2col.cpp - pp-im2col
//----------------------------------------------===//
//
// Convolution-shaped linalg ops to contractions that pp-gemm-to-runtime turns
// into GEMMs: the input read through a window is copied into im2col's column
// matrix first (Chellapilla, Puri and Simard, "High performance convolutional
// neural networks for document processing", 2006, section 3). One detection
// for a convolution's forward and its weight gradient, on the CPU and the GPU
// (docs/Execution.md, docs/GPU.md); the input gradient is already a
// contraction (pp-autodiff writes it into an expanded tensor laid out as the
// column matrix, lib/Model/AutodiffWindow.cpp).
//
//===----------------------------------------------------------------------===//

#include "pp/Conversion/GemmToRuntime.h"
#include "pp/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::pp {
#define GEN_PASS_DEF_PPIM2COLPASS
#include "pp/Conversion/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {
/// A convolution-shaped op: which input is read through a window, and the
/// loop dimensions of im2col's column matrix, outer to inner.
struct Im2colPlan {
  unsigned windowInput = 0;
  SmallVector<unsigned> columnDims;
  /// The image dimension, the GEMMs' batch (kGemmBatchAttrName).
  std::optional<unsigned> batch;
};
} // namespace

/// The loop dimensions that `expr` (a result of a map with `numDims`
/// dimensions) sums, if it is a sum of dimensions times positive constants
/// plus a constant; std::nullopt otherwise (mod, floordiv, symbols,
/// negative coefficients).
static std::optional<SmallVector<unsigned>> windowTerms(AffineExpr expr,
                                                        unsigned numDims) {
  SmallVector<int64_t> flat;
  if (failed(getFlattenedAffineExpr(expr, numDims, 0, &flat)) ||
      flat.size() != numDims + 1)
    return std::nullopt;
  SmallVector<unsigned> dims;
  for (unsigned d = 0; d < numDims; ++d) {
    if (flat[d] < 0)
      return std::nullopt;
    if (flat[d] > 0)
      dims.push_back(d);
  }
  return dims;
}

/// The dimensions of `map`'s results, in order (a projected permutation).
static SmallVector<unsigned> resultDims(AffineMap map) {
  SmallVector<unsigned> dims;
  for (AffineExpr e : map.getResults())
    dims.push_back(cast<AffineDimExpr>(e).getPosition());
  return dims;
}

/// Plans im2col for `op` (see pp::im2col), or fails.
static FailureOr<Im2colPlan> planIm2col(linalg::LinalgOp op,
                                        GemmTarget target) {
  Type element = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.hasPureTensorSemantics() || !(element.isF32() || element.isF64()) ||
      !linalg::detail::isContractionBody(
          *op.getBlock(), [](Operation *first, Operation *second) {
            return isa<arith::MulFOp>(first) && isa<arith::AddFOp>(second);
          }))
    return failure();
  for (Value v : op->getOperands()) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.hasStaticShape() || type.getElementType() != element)
      return failure();
  }
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!maps[2].isProjectedPermutation())
    return failure();
  Im2colPlan plan;
  if (maps[0].isProjectedPermutation() == maps[1].isProjectedPermutation())
    return failure();
  plan.windowInput = maps[0].isProjectedPermutation() ? 1 : 0;
  AffineMap window = maps[plan.windowInput];
  AffineMap other = maps[1 - plan.windowInput];
  if (!other.isProjectedPermutation())
    return failure();
  // Every loop dimension the window reads, each in one result only.
  unsigned numLoops = op.getNumLoops();
  llvm::SmallBitVector windowDims(numLoops);
  std::optional<unsigned> batch;
  for (auto [r, expr] : llvm::enumerate(window.getResults())) {
    std::optional<SmallVector<unsigned>> terms = windowTerms(expr, numLoops);
    if (!terms)
      return failure();
    for (unsigned d : *terms) {
      if (windowDims.test(d))
        return failure();
      windowDims.set(d);
    }
    // The batch: the first result, if a plain dimension.
    if (r == 0 && isa<AffineDimExpr>(expr))
      batch = (*terms)[0];
  }
  SmallVector<unsigned> otherDims = resultDims(other),
                        outDims = resultDims(maps[2]);
  // Each dimension of the window is shared with exactly one of the other
  // input (a reduction of the GEMM, or the weight gradient's batch) and the
  // output: no batch dimension in all three, no reduction of the window
  // alone.
  for (int d : windowDims.set_bits())
    if (llvm::is_contained(otherDims, d) == llvm::is_contained(outDims, d))
      return failure();
  // A batch that the output does not index is a reduction, a GEMM batch
  // only the CPU's accumulates (pp-gemm-to-runtime).
  if (batch && target == GemmTarget::GPU &&
      !llvm::is_contained(outDims, *batch))
    return failure();
  // The column matrix: the batch, then the dimensions shared with the other
  // input in its order, then those shared with the output in its order.
  if (batch)
    plan.columnDims.push_back(*batch);
  plan.batch = batch;
  for (ArrayRef<unsigned> order : {ArrayRef(otherDims), ArrayRef(outDims)})
    for (unsigned d : order)
      if (windowDims.test(d) && d != batch)
        plan.columnDims.push_back(d);
  return plan;
}

/// Applies `plan` to `op`: the window input copied into its column matrix
/// by a linalg.generic, and a copy of `op` that reads the matrix.
static void applyIm2col(RewriterBase &rewriter, linalg::GenericOp op,
                        const Im2colPlan &plan) {
  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  unsigned numLoops = op.getNumLoops();
  Value input = op.getDpsInputs()[plan.windowInput];
  AffineMap window = op.getIndexingMapsArray()[plan.windowInput];
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();

  // The copy iterates over the matrix; loop dimension columnDims[i] of `op`
  // is its dimension i.
  unsigned rank = plan.columnDims.size();
  SmallVector<AffineExpr> toCopy(numLoops, getAffineConstantExpr(0, ctx));
  SmallVector<int64_t> shape;
  for (auto [i, d] : llvm::enumerate(plan.columnDims)) {
    toCopy[d] = getAffineDimExpr(i, ctx);
    shape.push_back(ranges[d]);
  }
  AffineMap read = window.replaceDimsAndSymbols(toCopy, {}, rank, 0);
  Type element = getElementTypeOrSelf(input.getType());
  rewriter.setInsertionPoint(op);
  Value empty = tensor::EmptyOp::create(rewriter, loc, shape, element);
  auto copy = linalg::GenericOp::create(
      rewriter, loc, empty.getType(), ValueRange{input}, ValueRange{empty},
      ArrayRef<AffineMap>{read, rewriter.getMultiDimIdentityMap(rank)},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [](OpBuilder &b, Location l, ValueRange args) {
        linalg::YieldOp::create(b, l, args[0]);
      });

  SmallVector<AffineExpr> columnExprs;
  for (unsigned d : plan.columnDims)
    columnExprs.push_back(getAffineDimExpr(d, ctx));
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  maps[plan.windowInput] = AffineMap::get(numLoops, 0, columnExprs, ctx);
  SmallVector<Value> inputs = op.getDpsInputs();
  inputs[plan.windowInput] = copy.getResult(0);
  auto gemm = linalg::GenericOp::create(rewriter, loc, op.getResultTypes(),
                                        inputs, op.getDpsInits(), maps,
                                        op.getIteratorTypesArray());
  gemm->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  if (plan.batch)
    gemm->setAttr(kGemmBatchAttrName, rewriter.getI64IntegerAttr(*plan.batch));
  rewriter.inlineRegionBefore(op.getRegion(), gemm.getRegion(),
                              gemm.getRegion().begin());
  rewriter.replaceOp(op, gemm.getResults());
}

unsigned mlir::pp::im2col(Operation *root, GemmTarget target) {
  SmallVector<linalg::LinalgOp> candidates;
  root->walk([&](linalg::LinalgOp op) {
    if (isa<linalg::GenericOp>(op.getOperation()) ||
        linalg::isaConvolutionOpInterface(op))
      candidates.push_back(op);
  });
  IRRewriter rewriter(root->getContext());
  unsigned rewritten = 0;
  for (linalg::LinalgOp op : candidates) {
    FailureOr<Im2colPlan> plan = planIm2col(op, target);
    if (failed(plan))
      continue;
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic) {
      // A named convolution: generalized first (its maps and body are the
      // generic's).
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::GenericOp> generalized =
          linalg::generalizeNamedOp(rewriter, op);
      if (failed(generalized))
        continue;
      generic = *generalized;
    }
    applyIm2col(rewriter, generic, *plan);
    ++rewritten;
  }
  return rewritten;
}

namespace {
struct PPIm2colPass : mlir::pp::impl::PPIm2colPassBase<PPIm2colPass> {
  using Base::Base;
  void runOnOperation() override {
    if (target != "cpu" && target != "gpu") {
      getOperation()->emitError("option 'target' must be cpu or gpu, not '")
          << target << "'";
      return signalPassFailure();
    }
    im2col(getOperation(), target == "cpu" ? GemmTarget::CPU : GemmTarget::GPU);
  }
};
} // namespace
