//===- HostToLLVM.cpp - host code after bufferization, to LLVM -----------===//
//
// The lowering steps the CPU JIT (lib/Execution) and the GPU pipelines
// (lib/GPU) share once stage functions are on buffers.
//
//===----------------------------------------------------------------------===//

#include "pp/Conversion/HostToLLVM.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
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
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

void mlir::pp::buildOutParamsAndDeallocationPipeline(OpPassManager &pm) {
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());
}

void mlir::pp::buildHostToLLVMPipeline(OpPassManager &pm, bool vectors,
                                       bool gpu) {
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(arith::createArithExpandOpsPass());
  // Math ops with an LLVM intrinsic first; the rest (erf, ...) call libm
  // (on vectors: element by element, through vector extracts and inserts).
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  if (vectors)
    pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  if (gpu)
    pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
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

