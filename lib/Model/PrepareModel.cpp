//===- PrepareModel.cpp - pp-normalize-linalg -----------------------------===//
//
// Brings linalg to the form pp-autodiff reads: aggregated ops (softmax)
// decomposed, named structured ops as linalg.generic. The pp-prepare-model
// pipeline (Pipelines.cpp) runs this after the upstream TOSA conversions,
// the inliner and convert-elementwise-to-linalg.
//
//===----------------------------------------------------------------------===//

#include "PrepareModel.h"

#include "pp/Model/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::pp {
#define GEN_PASS_DEF_PPNORMALIZELINALGPASS
#include "pp/Model/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

LogicalResult mlir::pp::normalizeLinalg(Operation *root,
                                        const NormalizeLinalgOptions &options) {
  MLIRContext *ctx = root->getContext();
  if (options.elementwiseToLinalg) {
    RewritePatternSet patterns(ctx);
    linalg::populateElementwiseToLinalgConversionPatterns(patterns);
    GreedyRewriteConfig config;
    config.enableFolding(false);
    (void)applyPatternsGreedily(root, std::move(patterns), config);
  }

  // A linalg.generic with several results, some unused: drop those results
  // and what only they compute. torch-mlir's linalg lowering of aten.amax
  // (softmax's max) is aten.max.dim, one linalg.generic that yields the max
  // and its arg-max, whose accumulators share the comparison; the arg-max
  // is unused, and without it the max is a plain arith.maximumf reduction
  // that pp-autodiff differentiates.
  SmallVector<Operation *> withDeadResults;
  root->walk([&](linalg::GenericOp op) {
    if (op->getNumResults() > 1 && op.hasPureTensorSemantics() &&
        llvm::any_of(op->getResults(),
                     [](Value result) { return result.use_empty(); }))
      withDeadResults.push_back(op);
  });
  if (!withDeadResults.empty()) {
    RewritePatternSet patterns(ctx);
    linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    config.enableFolding(false);
    (void)applyOpPatternsGreedily(withDeadResults, std::move(patterns), config);
  }

  IRRewriter rewriter(ctx);
  bool ok = true;

  // linalg.softmax and other aggregated ops: decompose into linalg ops.
  SmallVector<linalg::AggregatedOpInterface> aggregated;
  root->walk([&](linalg::AggregatedOpInterface op) {
    if (op->getNumResults() > 0 &&
        llvm::all_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>))
      aggregated.push_back(op);
  });
  for (linalg::AggregatedOpInterface op : aggregated) {
    rewriter.setInsertionPoint(op);
    FailureOr<SmallVector<Value>> replacements =
        op.decomposeOperation(rewriter);
    if (failed(replacements) || replacements->empty()) {
      op->emitError("pp: cannot decompose '")
          << op->getName() << "' into linalg.generic ops";
      ok = false;
      continue;
    }
    rewriter.replaceOp(op, *replacements);
  }

  // Named structured ops to linalg.generic.
  SmallVector<linalg::LinalgOp> named;
  root->walk([&](linalg::LinalgOp op) {
    if (isa<linalg::GenericOp>(op) || !op.hasPureTensorSemantics())
      return;
    if (!options.generalizeConvolutions &&
        isa<linalg::ConvolutionOpInterface>(op.getOperation()))
      return;
    named.push_back(op);
  });
  for (linalg::LinalgOp op : named) {
    std::string name = op->getName().getStringRef().str();
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::GenericOp> generic =
        linalg::generalizeNamedOp(rewriter, op);
    if (failed(generic)) {
      op->emitError("pp: cannot turn '") << name << "' into linalg.generic";
      ok = false;
      continue;
    }
    if (options.originalNames)
      (*options.originalNames)[generic->getOperation()] = name;
  }
  return success(ok);
}

namespace {
struct PPNormalizeLinalgPass
    : mlir::pp::impl::PPNormalizeLinalgPassBase<PPNormalizeLinalgPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(normalizeLinalg(getOperation(), NormalizeLinalgOptions())))
      signalPassFailure();
  }
};
} // namespace
