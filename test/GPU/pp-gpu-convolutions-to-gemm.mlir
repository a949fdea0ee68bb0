// RUN: pp-opt %s -pass-pipeline='builtin.module(func.func(pp-gpu-convolutions-to-gemm))' | FileCheck %s
// RUN: pp-opt %s -pp-lower-stages-to-gpu | FileCheck %s --check-prefix=GEMM

// A 2-D convolution (NHWC input, HWCF filter) becomes im2col (a copy of
// the sliding windows: 2 images x 16 output pixels x 27 window elements)
// and a contraction with the filter as a 27 x 4 matrix.
// CHECK-LABEL: func.func @conv
// CHECK:     tensor.collapse_shape %arg1 {{\[\[}}0, 1, 2], [3]] : tensor<3x3x3x4xf32> into tensor<27x4xf32>
// CHECK:     %[[COLS:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<2x6x6x3xf32>) outs(%{{.*}} : tensor<2x16x27xf32>)
// CHECK:     linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]{{.*}} ins(%[[COLS]], %{{.*}} : tensor<2x16x27xf32>, tensor<27x4xf32>)
// CHECK-NOT: linalg.conv_2d
// The contraction's image and pixel dimensions merge into one GEMM
// dimension (m = 2 * 16): one cuBLAS call, m = 32, n = 4, k = 27.
// GEMM: call @pprt_gpu_gemm_f32(%c1_i64, %c32_i64, %c4_i64, %c27_i64, %c0_i64, %c0_i64, %{{.*}}, %c27_i64, %c0_i64, %{{.*}}, %c4_i64, %c0_i64, %{{.*}}, %c4_i64, %c0_i64, %c1_i64)
func.func @conv(%x: tensor<2x6x6x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<2x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x6x6x3xf32>, tensor<3x3x3x4xf32>) outs(%z : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  return %y : tensor<2x4x4x4xf32>
}

// Depthwise convolutions become im2col too (upstream's patterns), and a
// batch of matrix-vector products over the channels.
// CHECK-LABEL: func.func @depthwise
// CHECK-NOT: linalg.depthwise_conv_2d_nhwc_hwc
// CHECK: tensor<1x3x4x4x3x3xf32>
// CHECK: return
func.func @depthwise(%x: tensor<1x6x6x3xf32>, %w: tensor<3x3x3xf32>, %o: tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32> {
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x6x6x3xf32>, tensor<3x3x3xf32>) outs(%o : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  return %y : tensor<1x4x4x3xf32>
}
