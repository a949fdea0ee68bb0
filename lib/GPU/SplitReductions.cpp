//===- SplitReductions.cpp - pp-gpu-split-reductions ----------------------===//
//
// A step of pp-lower-stages-to-gpu (Pipelines.cpp); docs/GPU.md describes
// the pipeline.
//
//===----------------------------------------------------------------------===//

#include "pp/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::pp {
#define GEN_PASS_DEF_PPGPUSPLITREDUCTIONSPASS
#include "pp/GPU/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;

namespace {
struct PPGPUSplitReductionsPass
    : mlir::pp::impl::PPGPUSplitReductionsPassBase<PPGPUSplitReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (maxRatio < 2) {
      emitError(getOperation().getLoc(), "max-ratio must be at least 2");
      return signalPassFailure();
    }
    SmallVector<linalg::GenericOp> candidates;
    getOperation().walk([&](linalg::GenericOp op) {
      if (op.hasPureTensorSemantics() && op.getNumParallelLoops() == 0 &&
          op.getNumReductionLoops() > 0 && op.getNumDpsInits() == 1 &&
          llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
            return map.isProjectedPermutation();
          }))
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : candidates)
      (void)split(rewriter, op);
  }

  LogicalResult split(IRRewriter &rewriter, linalg::GenericOp op) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t size = 1;
    for (int64_t r : ranges) {
      if (ShapedType::isDynamic(r))
        return failure();
      size *= r;
    }
    int64_t ratio = 0;
    for (int64_t d = std::min<int64_t>(maxRatio, size / 2); d >= 32; --d)
      if (size % d == 0) {
        ratio = d;
        break;
      }
    if (size < minSize || ratio == 0)
      return failure();
    // One reduction dimension first: fold them all, if every operand holds
    // them contiguously and in order.
    linalg::LinalgOp target = op;
    if (op.getNumLoops() > 1) {
      ReassociationIndices all =
          llvm::to_vector(llvm::seq<int64_t>(0, op.getNumLoops()));
      if (!linalg::areDimSequencesPreserved(op.getIndexingMapsArray(), {all}))
        return failure();
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::CollapseResult> collapsed =
          linalg::collapseOpIterationDims(op, {all}, rewriter);
      if (failed(collapsed))
        return failure();
      rewriter.replaceOp(op, collapsed->results);
      target = collapsed->collapsedOp;
    }
    rewriter.setInsertionPoint(target);
    FailureOr<linalg::SplitReductionResult> result =
        linalg::splitReduction(rewriter, target, [&](linalg::LinalgOp) {
          linalg::SplitReductionOptions options;
          options.ratio = ratio;
          options.index = 0;
          options.innerParallel = false;
          return options;
        });
    return success(succeeded(result));
  }
};
} // namespace
