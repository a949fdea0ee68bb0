// Gradient checks of contractions: linalg.matmul (@matmul), and
// linalg.batch_matmul with a linalg.transpose'd operand and a
// linalg.broadcast bias added by linalg.map (@batch). In f32 and in f64
// (the same file with f32 replaced by f64).
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=matmul -o %t.matmul.mlir
// RUN: pp-exec %t.matmul.mlir --check-gradients --entry=matmul --gradient=matmul_grad | FileCheck %s
// RUN: sed 's/f32/f64/g' %s | pp-opt --pp-prepare-model --pp-autodiff=function=matmul -o %t.matmul.f64.mlir
// RUN: pp-exec %t.matmul.f64.mlir --check-gradients --entry=matmul --gradient=matmul_grad | FileCheck %s
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=batch -o %t.batch.mlir
// RUN: pp-exec %t.batch.mlir --check-gradients --entry=batch --gradient=batch_grad | FileCheck %s
// RUN: sed 's/f32/f64/g' %s | pp-opt --pp-prepare-model --pp-autodiff=function=batch -o %t.batch.f64.mlir
// RUN: pp-exec %t.batch.f64.mlir --check-gradients --entry=batch --gradient=batch_grad | FileCheck %s

// CHECK: gradient check PASSED

func.func private @sum2(%t: tensor<3x5xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce { arith.addf } ins(%t : tensor<3x5xf32>) outs(%init : tensor<f32>) dimensions = [0, 1]
  return %r : tensor<f32>
}
// sum(tanh(a b)^2)
func.func @matmul(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x5xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  %c = linalg.matmul ins(%a, %b : tensor<3x4xf32>, tensor<4x5xf32>) outs(%init : tensor<3x5xf32>) -> tensor<3x5xf32>
  %t = math.tanh %c : tensor<3x5xf32>
  %sq = arith.mulf %t, %t : tensor<3x5xf32>
  %s = call @sum2(%sq) : (tensor<3x5xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
// sum((a transpose(bt) + broadcast(bias))^2), batched
func.func @batch(%a: tensor<2x3x4xf32>, %bt: tensor<2x5x4xf32>, %bias: tensor<5xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<2x4x5xf32>
  %b = linalg.transpose ins(%bt : tensor<2x5x4xf32>) outs(%et : tensor<2x4x5xf32>) permutation = [0, 2, 1]
  %e = tensor.empty() : tensor<2x3x5xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%init : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %eb = tensor.empty() : tensor<2x3x5xf32>
  %bb = linalg.broadcast ins(%bias : tensor<5xf32>) outs(%eb : tensor<2x3x5xf32>) dimensions = [0, 1]
  %ea = tensor.empty() : tensor<2x3x5xf32>
  %sum = linalg.map { arith.addf } ins(%c, %bb : tensor<2x3x5xf32>, tensor<2x3x5xf32>) outs(%ea : tensor<2x3x5xf32>)
  %sq = arith.mulf %sum, %sum : tensor<2x3x5xf32>
  %e0 = tensor.empty() : tensor<f32>
  %i0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce { arith.addf } ins(%sq : tensor<2x3x5xf32>) outs(%i0 : tensor<f32>) dimensions = [0, 1, 2]
  return %r : tensor<f32>
}
