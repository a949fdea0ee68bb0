// pp-im2col: the input a convolution reads through a window is copied into
// im2col's column matrix, and the convolution reads the matrix, which makes
// it a contraction, marked with its image dimension (pp.gemm_batch): then
// pp-gemm-to-runtime maps it to one GEMM per image
// (pp-gemm-to-runtime-cpu.mlir has these contractions on buffers).
// RUN: pp-opt %s -pp-im2col -split-input-file | FileCheck %s
// RUN: pp-opt %s -pp-im2col=target=gpu -split-input-file | FileCheck %s --check-prefix=GPU
// RUN: not pp-opt %s -split-input-file -pp-im2col=target=tpu 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: error: option 'target' must be cpu or gpu, not 'tpu'

// The forward of an NCHW convolution with stride 2: the matrix is
// (n, c, kh, kw, oh, ow) = 2x3x3x3x4x4, read back by (d0, d4, d5, d6, d2, d3).
// CHECK-DAG: #[[$READ:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4 * 2 + d2, d5 * 2 + d3)>
// CHECK-DAG: #[[$ID6:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
// CHECK-DAG: #[[$COL:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d5, d6, d2, d3)>
// CHECK-DAG: #[[$W:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
// CHECK-DAG: #[[$Y:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @forward(
// CHECK-SAME:    %[[X:.+]]: tensor<2x3x9x9xf32>, %[[WT:.+]]: tensor<4x3x3x3xf32>, %[[Z:.+]]: tensor<2x4x4x4xf32>
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<2x3x3x3x4x4xf32>
// CHECK:         %[[M:.+]] = linalg.generic {indexing_maps = [#[[$READ]], #[[$ID6]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[X]] : tensor<2x3x9x9xf32>) outs(%[[E]] : tensor<2x3x3x3x4x4xf32>)
// CHECK-NEXT:  ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:    linalg.yield %[[IN]] : f32
// CHECK:         linalg.generic {indexing_maps = [#[[$COL]], #[[$W]], #[[$Y]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[M]], %[[WT]] : tensor<2x3x3x3x4x4xf32>, tensor<4x3x3x3xf32>) outs(%[[Z]] : tensor<2x4x4x4xf32>) attrs = {pp.gemm_batch = 0 : i64}
// CHECK-NEXT:  ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT:    %[[P:.+]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:    %[[S:.+]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:    linalg.yield %[[S]] : f32
// The GPU takes the forward too.
// GPU-LABEL: func.func @forward(
// GPU: tensor.empty() : tensor<2x3x3x3x4x4xf32>
func.func @forward(%x: tensor<2x3x9x9xf32>, %w: tensor<4x3x3x3xf32>, %z: tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32> {
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh * 2 + kh, ow * 2 + kw)>, affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>, affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<2x3x9x9xf32>, tensor<4x3x3x3xf32>) outs(%z : tensor<2x4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x4x4x4xf32>
  return %y : tensor<2x4x4x4xf32>
}

// -----

// The weight gradient (as pp-autodiff writes it): the matrix is
// (n, oh, ow, c, kh, kw), the batch (the image) a reduction of the GEMM, so
// the batch's products accumulate into one C (batch stride 0): the CPU
// only.
// CHECK-DAG: #[[$COLW:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d2, d3, d4, d5, d6)>
// CHECK-LABEL: func.func @weight_gradient(
// CHECK:         tensor.empty() : tensor<2x4x4x3x3x3xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[$COLW]], {{.+}}], iterator_types = ["reduction", "parallel", "reduction", "reduction", "parallel", "parallel", "parallel"]}{{.*}} attrs = {pp.gemm_batch = 0 : i64}
// GPU-LABEL: func.func @weight_gradient(
// GPU-NOT:   tensor.empty
// GPU:       return
func.func @weight_gradient(%x: tensor<2x3x9x9xf32>, %dy: tensor<2x4x4x4xf32>, %z: tensor<4x3x3x3xf32>) -> tensor<4x3x3x3xf32> {
  %dw = linalg.generic {indexing_maps = [affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh * 2 + kh, ow * 2 + kw)>, affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>, affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>], iterator_types = ["reduction", "parallel", "reduction", "reduction", "parallel", "parallel", "parallel"]}
      ins(%x, %dy : tensor<2x3x9x9xf32>, tensor<2x4x4x4xf32>) outs(%z : tensor<4x3x3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %b, %a : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x3x3x3xf32>
  return %dw : tensor<4x3x3x3xf32>
}

// -----

// A named convolution is generalized, then rewritten the same way.
// CHECK-LABEL: func.func @named(
// CHECK:         tensor.empty() : tensor<1x2x3x3x5x5xf32>
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
func.func @named(%x: tensor<1x2x7x7xf32>, %w: tensor<4x2x3x3xf32>, %z: tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32> {
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x2x7x7xf32>, tensor<4x2x3x3xf32>) outs(%z : tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  return %y : tensor<1x4x5x5xf32>
}

// -----

// Left alone: a depthwise convolution (the channel indexes all three
// operands: a second batch dimension), a window summed alone (pooling), a
// body that is not a multiply-add, dynamic shapes, f16 (below), and a named
// convolution that does not qualify (not generalized).
// CHECK-LABEL: func.func @left_alone(
// CHECK:         tensor.empty() : tensor<3x3xf32>
// CHECK-NOT:     tensor.empty
// CHECK:         linalg.depthwise_conv_2d_nchw_chw
// CHECK-NOT:     tensor.empty
// CHECK:         return
func.func @left_alone(%x: tensor<1x2x7x7xf32>, %w: tensor<2x3x3xf32>, %w4: tensor<2x2x3x3xf32>, %z: tensor<1x2x5x5xf32>, %d: tensor<?x2x7x7xf32>, %dz: tensor<?x2x5x5xf32>) -> (tensor<1x2x5x5xf32>, tensor<1x2x5x5xf32>, tensor<1x2x5x5xf32>, tensor<?x2x5x5xf32>, tensor<1x2x5x5xf32>) {
  %depthwise = linalg.generic {indexing_maps = [affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh + kh, ow + kw)>, affine_map<(n, c, oh, ow, kh, kw) -> (c, kh, kw)>, affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, ow)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x2x7x7xf32>, tensor<2x3x3xf32>) outs(%z : tensor<1x2x5x5xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x2x5x5xf32>
  %window = tensor.empty() : tensor<3x3xf32>
  %pool = linalg.generic {indexing_maps = [affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh + kh, ow + kw)>, affine_map<(n, c, oh, ow, kh, kw) -> (kh, kw)>, affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, ow)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %window : tensor<1x2x7x7xf32>, tensor<3x3xf32>) outs(%z : tensor<1x2x5x5xf32>) {
  ^bb0(%a: f32, %unused: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<1x2x5x5xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>, affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>, affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w4 : tensor<1x2x7x7xf32>, tensor<2x2x3x3xf32>) outs(%z : tensor<1x2x5x5xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.maximumf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x2x5x5xf32>
  %dynamic = linalg.generic {indexing_maps = [affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>, affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>, affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%d, %w4 : tensor<?x2x7x7xf32>, tensor<2x2x3x3xf32>) outs(%dz : tensor<?x2x5x5xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<?x2x5x5xf32>
  %named = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x2x7x7xf32>, tensor<2x3x3xf32>) outs(%z : tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  return %depthwise, %pool, %max, %dynamic, %named : tensor<1x2x5x5xf32>, tensor<1x2x5x5xf32>, tensor<1x2x5x5xf32>, tensor<?x2x5x5xf32>, tensor<1x2x5x5xf32>
}

// -----

// CHECK-LABEL: func.func @half(
// CHECK-NOT:     tensor.empty
// CHECK:         return
func.func @half(%x: tensor<1x2x7x7xf16>, %w: tensor<4x2x3x3xf16>, %z: tensor<1x4x5x5xf16>) -> tensor<1x4x5x5xf16> {
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>, affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>, affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x2x7x7xf16>, tensor<4x2x3x3xf16>) outs(%z : tensor<1x4x5x5xf16>) {
  ^bb0(%a: f16, %b: f16, %acc: f16):
    %p = arith.mulf %a, %b : f16
    %s = arith.addf %acc, %p : f16
    linalg.yield %s : f16
  } -> tensor<1x4x5x5xf16>
  return %y : tensor<1x4x5x5xf16>
}
