//===- ConvolutionsToGemm.cpp - pp-gpu-convolutions-to-gemm ---------------===//
//
// A step of pp-lower-stages-to-gpu (Pipelines.cpp); docs/GPU.md describes
// the pipeline.
//
//===----------------------------------------------------------------------===//

#include "pp/Conversion/GemmToRuntime.h"
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
#define GEN_PASS_DEF_PPGPUCONVOLUTIONSTOGEMMPASS
#include "pp/GPU/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;

namespace {
struct PPGPUConvolutionsToGemmPass
    : mlir::pp::impl::PPGPUConvolutionsToGemmPassBase<
          PPGPUConvolutionsToGemmPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateConvertConv2DToImg2ColPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // The convolutions written as linalg.generic (as pp-prepare-model and
    // the frontends leave them): the detection the CPU lowering uses.
    mlir::pp::im2col(getOperation(), mlir::pp::GemmTarget::GPU);
  }
};
} // namespace
