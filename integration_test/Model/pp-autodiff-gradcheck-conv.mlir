// Gradient checks of convolutions, with respect to the input (a window
// map, folded from an expanded adjoint) and the filter (a projected
// permutation): linalg.conv_2d_nhwc_hwcf with stride 1 (@conv_nhwc) and
// with stride 2 and dilation 2 on an input whose last column is never read
// (@conv_strided), conv_2d_nchw_fchw with strides (2, 1) (@conv_nchw),
// depthwise_conv_2d_nhwc_hwc with stride 2 (@depthwise) and conv_1d_nwc_wcf
// (@conv_1d), and a hand-written linalg.generic reading one column of its
// input through a window with a constant offset, x[2i + k + 1, 3]
// (@generic_window). Each loss is the sum of the squares of the
// convolution. In f32 and in f64 (the same file with f32 replaced by f64).
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=conv_nhwc -o %t.conv_nhwc.mlir
// RUN: pp-exec %t.conv_nhwc.mlir --check-gradients --entry=conv_nhwc --gradient=conv_nhwc_grad | FileCheck %s
// RUN: sed 's/f32/f64/g' %s | pp-opt --pp-prepare-model --pp-autodiff=function=conv_nhwc -o %t.conv_nhwc.f64.mlir
// RUN: pp-exec %t.conv_nhwc.f64.mlir --check-gradients --entry=conv_nhwc --gradient=conv_nhwc_grad | FileCheck %s
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=conv_strided -o %t.conv_strided.mlir
// RUN: pp-exec %t.conv_strided.mlir --check-gradients --entry=conv_strided --gradient=conv_strided_grad | FileCheck %s
// RUN: sed 's/f32/f64/g' %s | pp-opt --pp-prepare-model --pp-autodiff=function=conv_strided -o %t.conv_strided.f64.mlir
// RUN: pp-exec %t.conv_strided.f64.mlir --check-gradients --entry=conv_strided --gradient=conv_strided_grad | FileCheck %s
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=conv_nchw -o %t.conv_nchw.mlir
// RUN: pp-exec %t.conv_nchw.mlir --check-gradients --entry=conv_nchw --gradient=conv_nchw_grad | FileCheck %s
// RUN: sed 's/f32/f64/g' %s | pp-opt --pp-prepare-model --pp-autodiff=function=conv_nchw -o %t.conv_nchw.f64.mlir
// RUN: pp-exec %t.conv_nchw.f64.mlir --check-gradients --entry=conv_nchw --gradient=conv_nchw_grad | FileCheck %s
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=depthwise -o %t.depthwise.mlir
// RUN: pp-exec %t.depthwise.mlir --check-gradients --entry=depthwise --gradient=depthwise_grad | FileCheck %s
// RUN: sed 's/f32/f64/g' %s | pp-opt --pp-prepare-model --pp-autodiff=function=depthwise -o %t.depthwise.f64.mlir
// RUN: pp-exec %t.depthwise.f64.mlir --check-gradients --entry=depthwise --gradient=depthwise_grad | FileCheck %s
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=conv_1d -o %t.conv_1d.mlir
// RUN: pp-exec %t.conv_1d.mlir --check-gradients --entry=conv_1d --gradient=conv_1d_grad | FileCheck %s
// RUN: sed 's/f32/f64/g' %s | pp-opt --pp-prepare-model --pp-autodiff=function=conv_1d -o %t.conv_1d.f64.mlir
// RUN: pp-exec %t.conv_1d.f64.mlir --check-gradients --entry=conv_1d --gradient=conv_1d_grad | FileCheck %s
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=generic_window -o %t.generic_window.mlir
// RUN: pp-exec %t.generic_window.mlir --check-gradients --entry=generic_window --gradient=generic_window_grad | FileCheck %s
// RUN: sed 's/f32/f64/g' %s | pp-opt --pp-prepare-model --pp-autodiff=function=generic_window -o %t.generic_window.f64.mlir
// RUN: pp-exec %t.generic_window.f64.mlir --check-gradients --entry=generic_window --gradient=generic_window_grad | FileCheck %s

// CHECK: gradient check PASSED

func.func @conv_nhwc(%x: tensor<1x5x5x2xf32>, %w: tensor<3x3x2x3xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x3x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x5x5x2xf32>, tensor<3x3x2x3xf32>) outs(%z : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  %sq = arith.mulf %c, %c : tensor<1x3x3x3xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce { arith.addf } ins(%sq : tensor<1x3x3x3xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1, 2, 3]
  return %r : tensor<f32>
}

// Rows 0, 2, .., 6 and columns 0, 2, 4, 6 of the input are read; column 7
// gets a zero gradient.
func.func @conv_strided(%x: tensor<2x9x8x2xf32>, %w: tensor<2x3x2x2xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x2x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x2x2xf32>) -> tensor<2x4x2x2xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<2x9x8x2xf32>, tensor<2x3x2x2xf32>) outs(%z : tensor<2x4x2x2xf32>) -> tensor<2x4x2x2xf32>
  %sq = arith.mulf %c, %c : tensor<2x4x2x2xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce { arith.addf } ins(%sq : tensor<2x4x2x2xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1, 2, 3]
  return %r : tensor<f32>
}

func.func @conv_nchw(%x: tensor<1x2x5x4xf32>, %w: tensor<3x2x2x3xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x2x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%x, %w : tensor<1x2x5x4xf32>, tensor<3x2x2x3xf32>) outs(%z : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %sq = arith.mulf %c, %c : tensor<1x3x2x2xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce { arith.addf } ins(%sq : tensor<1x3x2x2xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1, 2, 3]
  return %r : tensor<f32>
}

func.func @depthwise(%x: tensor<1x5x5x3xf32>, %w: tensor<3x3x3xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x2x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x5x5x3xf32>, tensor<3x3x3xf32>) outs(%z : tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  %sq = arith.mulf %c, %c : tensor<1x2x2x3xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce { arith.addf } ins(%sq : tensor<1x2x2x3xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1, 2, 3]
  return %r : tensor<f32>
}

func.func @conv_1d(%x: tensor<2x7x2xf32>, %w: tensor<3x2x3xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  %c = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%x, %w : tensor<2x7x2xf32>, tensor<3x2x3xf32>) outs(%z : tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  %sq = arith.mulf %c, %c : tensor<2x5x3xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce { arith.addf } ins(%sq : tensor<2x5x3xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1, 2]
  return %r : tensor<f32>
}

// y[i, j] = sum_k x[2i + k + 1, 3] * w[k, j]: only rows 1..7 of column 3 of
// x get a gradient.
func.func @generic_window(%x: tensor<9x5xf32>, %w: tensor<3x2xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i * 2 + k + 1, 3)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<9x5xf32>, tensor<3x2xf32>) outs(%z : tensor<3x2xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<3x2xf32>
  %sq = arith.mulf %y, %y : tensor<3x2xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce { arith.addf } ins(%sq : tensor<3x2xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1]
  return %r : tensor<f32>
}
