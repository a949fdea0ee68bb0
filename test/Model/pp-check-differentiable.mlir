// RUN: pp-opt %s -verify-diagnostics -pp-check-differentiable | FileCheck %s

// Everything in the supported set: no diagnostic, the IR unchanged. The
// private helper is checked too; the TOSA-style broadcast map (a constant 0
// on a unit dimension) is accepted, and so are the window maps of
// convolutions and pooling (@cnn).

// CHECK-LABEL: func.func @model(
// CHECK:         linalg.matmul
// CHECK:         call @relu
// CHECK:         linalg.softmax
// CHECK-LABEL: func.func private @relu(
// CHECK-LABEL: func.func @cnn(
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK:         linalg.pooling_nhwc_max

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (0, d1)>
func.func @model(%x: tensor<2x4xf32>, %w: tensor<4x3xf32>, %b: tensor<1x3xf32>) -> tensor<6x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x3xf32>) outs(%f : tensor<2x3xf32>) -> tensor<2x3xf32>
  %biased = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<2x3xf32>, tensor<1x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %i = linalg.index 1 : index
    %s = arith.addf %in, %bias : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<2x3xf32>
  %r = func.call @relu(%biased) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %sm = linalg.softmax dimension(1) ins(%r : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %flat = tensor.collapse_shape %sm [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  %cat = tensor.concat dim(0) %flat, %flat : (tensor<6xf32>, tensor<6xf32>) -> tensor<12xf32>
  %slice = tensor.extract_slice %cat[0] [6] [1] : tensor<12xf32> to tensor<6xf32>
  %pad = tensor.pad %slice low[3] high[3] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<6xf32> to tensor<12xf32>
  %two = tensor.expand_shape %pad [[0, 1]] output_shape [6, 2] : tensor<12xf32> into tensor<6x2xf32>
  return %two : tensor<6x2xf32>
}

func.func private @relu(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.map ins(%x : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>)
    (%in: f32, %out: f32) {
      %m = arith.maximumf %in, %zero : f32
      linalg.yield %m : f32
    }
  return %r : tensor<2x3xf32>
}

func.func @cnn(%x: tensor<1x6x6x2xf32>, %k: tensor<3x3x2x3xf32>) -> tensor<1x2x2x3xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -1.0e30 : f32
  %e = tensor.empty() : tensor<1x4x4x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %c = linalg.conv_2d_nhwc_hwcf ins(%x, %k : tensor<1x6x6x2xf32>, tensor<3x3x2x3xf32>) outs(%z : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %ep = tensor.empty() : tensor<1x2x2x3xf32>
  %m = linalg.fill ins(%ninf : f32) outs(%ep : tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%c, %window : tensor<1x4x4x3xf32>, tensor<2x2xf32>) outs(%m : tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  return %p : tensor<1x2x2x3xf32>
}
