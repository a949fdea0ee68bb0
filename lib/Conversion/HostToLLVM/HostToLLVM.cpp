//===- HostToLLVM.cpp - host code after bufferization, to LLVM -----------===//
//
// The lowering steps the CPU JIT (lib/Execution) and the GPU pipelines
// (lib/GPU) share once stage functions are on buffers.
//
//===----------------------------------------------------------------------===//

#include "pp/Conversion/HostToLLVM.h"
#include "pp/Conversion/Passes.h"

#include "mlir/Analysis/DataLayoutAnalysis.h"
#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::pp {
#define GEN_PASS_DEF_CONVERTHOSTTOLLVMPASS
#include "pp/Conversion/Passes.h.inc"
} // namespace mlir::pp

using namespace mlir;
using namespace mlir::pp;

void mlir::pp::buildOutParamsPipeline(OpPassManager &pm) {
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
}

void mlir::pp::buildDeallocationPipeline(OpPassManager &pm) {
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());
}

void mlir::pp::buildOutParamsAndDeallocationPipeline(OpPassManager &pm) {
  buildOutParamsPipeline(pm);
  buildDeallocationPipeline(pm);
}

void mlir::pp::moveDeallocsToLastUse(Operation *root) {
  SmallVector<memref::DeallocOp> deallocs;
  root->walk([&](memref::DeallocOp op) { deallocs.push_back(op); });
  // Each op's position in its block, numbered once per block: a moved
  // dealloc takes the position of the op it follows. (Operation's own
  // order is recomputed for the whole block after every move, which made
  // this quadratic in a rank program's length.) Only deallocs move, and a
  // dealloc is no other buffer's use, so the other positions stay valid.
  DenseMap<Operation *, int64_t> position;
  DenseSet<Block *> numbered;
  auto positionOf = [&](Operation *op) {
    Block *block = op->getBlock();
    if (numbered.insert(block).second) {
      int64_t next = 0;
      for (Operation &each : *block)
        position[&each] = next++;
    }
    return position.lookup(op);
  };
  for (memref::DeallocOp dealloc : deallocs) {
    Block *block = dealloc->getBlock();
    // The buffer and everything computed from it (views, casts, pointers),
    // except through calls, whose results do not alias their operands
    // here (out-parameters, runtime entry points).
    SmallVector<Value> worklist{dealloc.getMemref()};
    DenseSet<Value> seen;
    Operation *last = nullptr;
    bool movable = true;
    while (!worklist.empty() && movable) {
      Value v = worklist.pop_back_val();
      if (!seen.insert(v).second)
        continue;
      for (Operation *user : v.getUsers()) {
        if (user == dealloc.getOperation())
          continue;
        Operation *ancestor = block->findAncestorOpInBlock(*user);
        if (!ancestor) {
          movable = false;
          break;
        }
        if (!last || positionOf(last) < positionOf(ancestor))
          last = ancestor;
        if (!isa<func::CallOp>(user))
          for (Value result : user->getResults())
            worklist.push_back(result);
      }
    }
    if (!movable || !last || positionOf(last) >= positionOf(dealloc))
      continue;
    if (Operation *def = dealloc.getMemref().getDefiningOp();
        def && def->getBlock() == block && positionOf(last) < positionOf(def))
      continue;
    dealloc->moveAfter(last);
    position[dealloc] = positionOf(last);
  }
}

namespace {
struct ConvertHostToLLVMPass
    : mlir::pp::impl::ConvertHostToLLVMPassBase<ConvertHostToLLVMPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// True if `fn` has an op of the vector dialect.
static bool hasVectorOps(func::FuncOp fn) {
  return fn
      .walk([](Operation *op) {
        return isa_and_present<vector::VectorDialect>(op->getDialect())
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

void ConvertHostToLLVMPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();
  // convert-vector-to-llvm's progressive lowering (a greedy rewrite) and
  // conversion where there are vectors: on a function without any it would
  // only walk it.
  OpPassManager vectorPipeline(func::FuncOp::getOperationName());
  vectorPipeline.addPass(createConvertVectorToLLVMPass());
  for (auto fn : module.getOps<func::FuncOp>())
    if (hasVectorOps(fn) && failed(runPipeline(vectorPipeline, fn)))
      return signalPassFailure();

  // As finalize-memref-to-llvm and convert-func-to-llvm set up their type
  // converter, with one symbol table cache for the module's lookups.
  const auto &dataLayout = getAnalysis<DataLayoutAnalysis>();
  LowerToLLVMOptions options(ctx, dataLayout.getAtOrAbove(module));
  options.useGenericFunctions = genericAllocator;
  LLVMTypeConverter converter(ctx, options, &dataLayout);
  SymbolTableCollection symbolTables;
  RewritePatternSet patterns(ctx);
  populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns,
                                                 &symbolTables);
  arith::populateArithToLLVMConversionPatterns(converter, patterns);
  index::populateIndexToLLVMConversionPatterns(converter, patterns);
  cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
  cf::populateAssertToLLVMConversionPattern(converter, patterns,
                                            /*abortOnFailure=*/true,
                                            &symbolTables);
  ub::populateUBToLLVMConversionPatterns(converter, patterns);
  populateFuncToLLVMConversionPatterns(converter, patterns, &symbolTables);
  LLVMConversionTarget target(*ctx);
  if (failed(applyPartialConversion(module, target, std::move(patterns))))
    signalPassFailure();
}

void mlir::pp::buildHostToLLVMPipeline(OpPassManager &pm, bool gpu,
                                       bool genericAllocator) {
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // bf16 conversions (pp-round-to-bf16) as integer ops: the host has no
  // bf16 instructions to lower them to, and no __truncsfbf2 to call.
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  // Math ops with an LLVM intrinsic first; the rest (erf, ...) call libm
  // (on vectors: element by element, through vector extracts and inserts).
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  if (!gpu) {
    ConvertHostToLLVMPassOptions host;
    host.genericAllocator = genericAllocator;
    pm.addPass(createConvertHostToLLVMPass(host));
  } else {
    // The GPU path's host code has no vector ops; gpu-to-llvm converts the
    // launches with its own type converter, between the memref and the
    // func conversions.
    FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
    memrefOptions.useGenericFunctions = genericAllocator;
    pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
    pm.addPass(createGpuToLLVMConversionPass());
    pm.addPass(createArithToLLVMConversionPass());
    pm.addPass(createConvertIndexToLLVMPass());
    pm.addPass(createConvertControlFlowToLLVMPass());
    pm.addPass(createUBToLLVMConversionPass());
    pm.addPass(createConvertFuncToLLVMPass());
  }
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::pp::makeResultsDistinct(Operation *root) {
  root->walk([](func::ReturnOp ret) {
    OpBuilder b(ret);
    DenseSet<Value> seen;
    for (OpOperand &operand : ret->getOpOperands()) {
      Value v = operand.get();
      auto tensor = dyn_cast<RankedTensorType>(v.getType());
      if (!tensor || seen.insert(v).second)
        continue;
      Value empty = tensor::EmptyOp::create(b, ret.getLoc(), tensor.getShape(),
                                            tensor.getElementType());
      operand.set(
          linalg::CopyOp::create(b, ret.getLoc(), v, empty).getResult(0));
    }
  });
}
