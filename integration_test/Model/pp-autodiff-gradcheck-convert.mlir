// Gradient check through arith.extf / arith.truncf (and more math: exp2,
// log1p, sin, cos, absf, fma, atan), with an f64 middle section.
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=convert -o %t.mlir
// RUN: pp-exec %t.mlir --check-gradients --entry=convert --gradient=convert_grad | FileCheck %s

// CHECK: gradient check PASSED

func.func @convert(%x: tensor<3x4xf32>, %y: tensor<3x4xf32>) -> tensor<f32> {
  %wx = arith.extf %x : tensor<3x4xf32> to tensor<3x4xf64>
  %wy = arith.extf %y : tensor<3x4xf32> to tensor<3x4xf64>
  %0 = math.exp2 %wx : tensor<3x4xf64>
  %sq = arith.mulf %wy, %wy : tensor<3x4xf64>
  %1 = math.log1p %sq : tensor<3x4xf64>
  %2 = math.sin %wx : tensor<3x4xf64>
  %3 = math.cos %wy : tensor<3x4xf64>
  %4 = math.absf %wx : tensor<3x4xf64>
  %5 = math.fma %0, %1, %2 : tensor<3x4xf64>
  %6 = math.atan %3 : tensor<3x4xf64>
  %7 = arith.mulf %5, %6 : tensor<3x4xf64>
  %8 = arith.addf %7, %4 : tensor<3x4xf64>
  %n = arith.truncf %8 : tensor<3x4xf64> to tensor<3x4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce { arith.addf } ins(%n : tensor<3x4xf32>) outs(%init : tensor<f32>) dimensions = [0, 1]
  return %r : tensor<f32>
}
