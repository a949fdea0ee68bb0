// Gradient check of a small TOSA convolutional model through
// pp-prepare-model: tosa.conv2d with padding, stride 2 and a bias (a
// tensor.pad, then linalg.conv_2d_nhwc_fhwc accumulating into the
// broadcast bias), tosa.avg_pool2d with padding (pooling_nhwc_sum, then a
// division by the number of elements of each window, computed from
// linalg.index) and tosa.max_pool2d with padding (padded with the lowest
// float, then pooling_nhwc_max). The loss is the sum of the squares. In f32
// and in f64: TOSA has no f64 convolution accumulator nor f64 max_pool2d
// lowering, so the f64 run promotes the model after pp-prepare-model.
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=tosa_cnn -o %t.mlir
// RUN: pp-exec %t.mlir --check-gradients --entry=tosa_cnn --gradient=tosa_cnn_grad | FileCheck %s
// RUN: pp-opt %s --pp-prepare-model | sed 's/f32/f64/g' | pp-opt --pp-autodiff=function=tosa_cnn -o %t.f64.mlir
// RUN: pp-exec %t.f64.mlir --check-gradients --entry=tosa_cnn --gradient=tosa_cnn_grad | FileCheck %s

// CHECK: gradient check PASSED

func.func @tosa_cnn(%x: tensor<1x5x5x2xf32>, %w: tensor<3x3x3x2xf32>, %b: tensor<3xf32>) -> tensor<1xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x5x5x2xf32>, tensor<3x3x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x3xf32>
  %a = tosa.avg_pool2d %c, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 1, 1>} : (tensor<1x3x3x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x3xf32>
  %m = tosa.max_pool2d %a {kernel = array<i64: 2, 2>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  %sq = tosa.mul %m, %m, %shift : (tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1xi8>) -> tensor<1x3x3x3xf32>
  %shape = tosa.const_shape {values = dense<[27]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %flat = tosa.reshape %sq, %shape : (tensor<1x3x3x3xf32>, !tosa.shape<1>) -> tensor<27xf32>
  %s = tosa.reduce_sum %flat {axis = 0 : i32} : (tensor<27xf32>) -> tensor<1xf32>
  return %s : tensor<1xf32>
}
