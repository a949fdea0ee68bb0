//===- FuseElementwise.cpp - pp-gpu-fuse-elementwise ----------------------===//
//
// A step of pp-lower-stages-to-gpu (Pipelines.cpp); docs/GPU.md describes
// the pipeline.
//
//===----------------------------------------------------------------------===//

#include "GPUUtils.h"
#include "pp/Conversion/HostToLLVM.h"
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
#define GEN_PASS_DEF_PPGPUFUSEELEMENTWISEPASS
#include "pp/GPU/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {
struct PPGPUFuseElementwisePass
    : mlir::pp::impl::PPGPUFuseElementwisePassBase<PPGPUFuseElementwisePass> {
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    IRRewriter rewriter(fn.getContext());
    SmallVector<linalg::LinalgOp> named;
    fn.walk([&](linalg::LinalgOp op) {
      // linalg.copy stays: its generic form, an identity, would fold away,
      // and the copies that make a function's results distinct values
      // (buffer-results-to-out-params needs them) would go with it.
      if (!isa<linalg::GenericOp, linalg::CopyOp>(op) &&
          op.hasPureTensorSemantics() && !isContraction(op))
        named.push_back(op);
    });
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      // Ops without a generic form (none among linalg's named ops today)
      // stay as they are.
      (void)linalg::generalizeNamedOp(rewriter, op);
    }

    RewritePatternSet patterns(fn.getContext());
    linalg::populateElementwiseOpsFusionPatterns(
        patterns, [](OpOperand *fused) {
          Operation *producer = fused->get().getDefiningOp();
          return producer && fused->get().hasOneUse() &&
                 !isContraction(fused->getOwner());
        });
    if (failed(applyPatternsGreedily(fn, std::move(patterns))))
      return signalPassFailure();
    // Folding may leave a function returning one value twice (a multiply
    // by one folded away).
    pp::makeResultsDistinct(fn);
  }
};
} // namespace
