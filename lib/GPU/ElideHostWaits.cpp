//===- ElideHostWaits.cpp - pp-gpu-elide-host-waits -----------------------===//
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
#define GEN_PASS_DEF_PPGPUELIDEHOSTWAITSPASS
#include "pp/GPU/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

namespace {
struct PPGPUElideHostWaitsPass
    : mlir::pp::impl::PPGPUElideHostWaitsPassBase<PPGPUElideHostWaitsPass> {
  void runOnOperation() override {
    SymbolTableCollection symbols;
    SmallVector<gpu::WaitOp> waits;
    getOperation().walk([&](gpu::WaitOp wait) {
      // A host wait: no token result.
      if (wait.getAsyncToken())
        return;
      auto call = dyn_cast_or_null<func::CallOp>(wait->getNextNode());
      if (!call)
        return;
      auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (callee && callee->hasAttr(kStreamOrderedAttrName))
        waits.push_back(wait);
    });
    for (gpu::WaitOp wait : waits)
      wait.erase();
  }
};
} // namespace
