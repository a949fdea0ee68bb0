//===- pp-opt.cpp - the pp-mlir optimizer driver ---------------------------===//
//
// mlir-opt with the pp dialect and passes, plus the upstream dialects a
// staged model uses.
//
//===----------------------------------------------------------------------===//

#include "pp/Dialect/PP/IR/PPDialect.h"
#include "pp/Dialect/PP/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::pp::PPDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::linalg::LinalgDialect,
                  mlir::math::MathDialect, mlir::tensor::TensorDialect>();
  mlir::pp::registerAllPPPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "pp-mlir optimizer driver\n", registry));
}
