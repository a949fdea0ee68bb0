//===- Pipelines.cpp - pass pipelines on the model ------------------------===//

#include "pp/Model/Passes.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::pp;

void mlir::pp::buildTosaToLinalgPipeline(OpPassManager &pm) {
  OpPassManager &tosa = pm.nest<func::FuncOp>();
  tosa.addPass(tosa::createTosaToLinalgNamed());
  tosa.addPass(tosa::createTosaToLinalg());
  tosa.addPass(createTosaToArithPass());
  tosa.addPass(createTosaToTensorPass());
}

void mlir::pp::buildPrepareModelPipeline(OpPassManager &pm) {
  // The user's cuts ride in locations through the rewrites below.
  pm.addPass(createPPSaveSplitPointsPass());
  buildTosaToLinalgPipeline(pm);
  pm.addPass(createInlinerPass());
  OpPassManager &linalg = pm.nest<func::FuncOp>();
  linalg.addPass(createConvertElementwiseToLinalgPass());
  linalg.addPass(createPPNormalizeLinalgPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createPPRestoreSplitPointsPass());
}

void mlir::pp::registerPPModelPipelines() {
  PassPipelineRegistration<>(
      "pp-prepare-model",
      "Bring a model to the form pp-autodiff differentiates (TOSA to linalg, "
      "inline private helpers, elementwise ops and named linalg ops to "
      "linalg.generic, decompose softmax, canonicalize, cse; pp.split_point "
      "markers kept)",
      buildPrepareModelPipeline);
}
