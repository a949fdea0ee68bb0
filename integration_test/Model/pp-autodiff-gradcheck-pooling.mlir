// Gradient checks of pooling, whose input is read through a window map:
// linalg.pooling_nhwc_sum with a 3x2 window, strides (2, 1) and dilations
// (1, 2) (@sum_pool), and linalg.pooling_nhwc_max with overlapping 3x3
// windows at stride 2 (@max_pool; an element that is the maximum of two
// windows gets both gradients). pp-exec's seeded random inputs have no
// ties. Each loss is the sum of the squares of the pooled tensor. In f32
// and in f64 (the same file with f32 replaced by f64).
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=sum_pool -o %t.sum_pool.mlir
// RUN: pp-exec %t.sum_pool.mlir --check-gradients --entry=sum_pool --gradient=sum_pool_grad | FileCheck %s
// RUN: sed 's/f32/f64/g' %s | pp-opt --pp-prepare-model --pp-autodiff=function=sum_pool -o %t.sum_pool.f64.mlir
// RUN: pp-exec %t.sum_pool.f64.mlir --check-gradients --entry=sum_pool --gradient=sum_pool_grad | FileCheck %s
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=max_pool -o %t.max_pool.mlir
// RUN: pp-exec %t.max_pool.mlir --check-gradients --entry=max_pool --gradient=max_pool_grad | FileCheck %s
// RUN: sed 's/f32/f64/g' %s | pp-opt --pp-prepare-model --pp-autodiff=function=max_pool -o %t.max_pool.f64.mlir
// RUN: pp-exec %t.max_pool.f64.mlir --check-gradients --entry=max_pool --gradient=max_pool_grad | FileCheck %s

// CHECK: gradient check PASSED

func.func @sum_pool(%x: tensor<1x7x6x2xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %window = tensor.empty() : tensor<3x2xf32>
  %e = tensor.empty() : tensor<1x3x4x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x4x2xf32>) -> tensor<1x3x4x2xf32>
  %p = linalg.pooling_nhwc_sum {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%x, %window : tensor<1x7x6x2xf32>, tensor<3x2xf32>) outs(%z : tensor<1x3x4x2xf32>) -> tensor<1x3x4x2xf32>
  %sq = arith.mulf %p, %p : tensor<1x3x4x2xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce { arith.addf } ins(%sq : tensor<1x3x4x2xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1, 2, 3]
  return %r : tensor<f32>
}

func.func @max_pool(%x: tensor<2x6x6x2xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -1.0e30 : f32
  %window = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<2x2x2x2xf32>
  %m = linalg.fill ins(%ninf : f32) outs(%e : tensor<2x2x2x2xf32>) -> tensor<2x2x2x2xf32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %window : tensor<2x6x6x2xf32>, tensor<3x3xf32>) outs(%m : tensor<2x2x2x2xf32>) -> tensor<2x2x2x2xf32>
  %sq = arith.mulf %p, %p : tensor<2x2x2x2xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce { arith.addf } ins(%sq : tensor<2x2x2x2xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1, 2, 3]
  return %r : tensor<f32>
}
