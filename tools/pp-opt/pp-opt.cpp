//===- pp-opt.cpp - the pp-mlir optimizer driver --------------------------===//
//
// mlir-opt with the pp dialect and passes, the dialects a model may contain
// (the same as pp-run's, pp-exec's and the plugin's: pp/InitAllDialects.h)
// and what the GPU lowering needs.
//
//===----------------------------------------------------------------------===//

#include "pp/GPU/Passes.h"
#include "pp/InitAllDialects.h"
#include "pp/InitAllPasses.h"
#include "pp/Support/Version.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::pp::registerModelDialects(registry);
  // pp-lower-stages-to-gpu: NVVM, the GPU target and LLVM IR translations.
  mlir::pp::registerGPULoweringDependencies(registry);
  mlir::pp::registerAllPPPasses();
  // Upstream passes pp-prepare-model is made of, to run them one by one.
  mlir::registerTransformsPasses();
  mlir::registerLinalgPasses();
  mlir::registerPass([] { return mlir::tosa::createTosaToLinalgNamed(); });
  mlir::registerPass([] { return mlir::tosa::createTosaToLinalg(); });
  mlir::registerPass([] { return mlir::createTosaToArithPass(); });
  mlir::registerPass([] { return mlir::createTosaToTensorPass(); });
  // pp-lower-stages-to-gpu's steps that tests print the IR after.
  mlir::registerConvertParallelLoopToGpuPass();
  mlir::registerGpuKernelOutliningPass();
  mlir::pp::addVersionPrinter("pp-opt");
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "pp-mlir optimizer driver\n", registry));
}
