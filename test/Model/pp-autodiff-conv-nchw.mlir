// pp-autodiff lays out the expanded adjoint of an NCHW convolution's input
// as im2col's column matrix, (n, c, kh, kw, oh, ow): the kernel positions
// before the output positions, so that the adjoint generic is one GEMM per
// image (pp-gemm-to-runtime). With NHWC the output positions would then come
// before the channel, against the operand's order of its sliced terms: the
// terms keep the map's order there, (n, oh, kh, ow, kw, c).
// RUN: pp-opt %s -split-input-file "-pp-autodiff=function=f wrt=0" | FileCheck %s

// CHECK-DAG: #[[$W:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
// CHECK-DAG: #[[$Y:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$COL:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d5, d6, d2, d3)>
// CHECK-LABEL: func.func @f_grad(
// dX_col[n, c, kh, kw, oh, ow] = sum_f W[f, c, kh, kw] * dY[n, f, oh, ow].
// CHECK:       %[[ZE:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x2x2x2x3x3xf32>)
// CHECK:       %[[COL:.+]] = linalg.generic {indexing_maps = [#[[$W]], #[[$Y]], #[[$COL]]], iterator_types = ["parallel", "reduction", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%{{.+}}, %{{.+}} : tensor<4x2x2x2xf32>, tensor<1x4x3x3xf32>) outs(%[[ZE]] : tensor<1x2x2x2x3x3xf32>)
// col2im: kernel position (0, 0) at rows and columns 0, 2, 4 of zeros...
// CHECK:       %[[Z:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x2x7x7xf32>)
// CHECK:       %[[K00:.+]] = tensor.extract_slice %[[COL]][0, 0, 0, 0, 0, 0] [1, 2, 1, 1, 3, 3] [1, 1, 1, 1, 1, 1] : tensor<1x2x2x2x3x3xf32> to tensor<1x2x3x3xf32>
// CHECK:       %[[A0:.+]] = tensor.insert_slice %[[K00]] into %[[Z]][0, 0, 0, 0] [1, 2, 3, 3] [1, 1, 2, 2]
// ...then (0, 1), (1, 0), (1, 1), each added at its offset.
// CHECK:       tensor.extract_slice %[[COL]][0, 0, 0, 1, 0, 0] [1, 2, 1, 1, 3, 3]
// CHECK:       tensor.insert_slice %{{.+}} into %[[A0]][0, 0, 0, 1] [1, 2, 3, 3] [1, 1, 2, 2]
// CHECK:       tensor.extract_slice %[[COL]][0, 0, 1, 0, 0, 0] [1, 2, 1, 1, 3, 3]
// CHECK:       tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 1, 0] [1, 2, 3, 3] [1, 1, 2, 2]
// CHECK:       tensor.extract_slice %[[COL]][0, 0, 1, 1, 0, 0] [1, 2, 1, 1, 3, 3]
// CHECK:       %[[DX:.+]] = tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 1, 1] [1, 2, 3, 3] [1, 1, 2, 2]
// CHECK-NOT:   tensor.insert_slice
// CHECK:       return %{{.+}}, %[[DX]] : tensor<f32>, tensor<1x2x7x7xf32>

// sum(conv_2d_nchw(x, w)) with stride 2 and a 2x2 kernel: 3x3 outputs.
func.func @f(%x: tensor<1x2x7x7xf32>, %w: tensor<4x2x2x2xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x3x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh * 2 + kh, ow * 2 + kw)>, affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>, affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x2x7x7xf32>, tensor<4x2x2x2xf32>) outs(%z : tensor<1x4x3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x4x3x3xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce { arith.addf } ins(%c : tensor<1x4x3x3xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1, 2, 3]
  return %r : tensor<f32>
}

// -----

// CHECK-DAG: #[[$NHWC:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d4, d2, d5, d6)>
// CHECK-LABEL: func.func @f_grad(
// CHECK:       linalg.generic {indexing_maps = [{{.+}}, {{.+}}, #[[$NHWC]]]{{.+}} outs(%{{.+}} : tensor<1x3x2x3x2x2xf32>)
func.func @f(%x: tensor<1x7x7x2xf32>, %w: tensor<2x2x2x4xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x3x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, f, kh, kw, c) -> (n, oh * 2 + kh, ow * 2 + kw, c)>, affine_map<(n, oh, ow, f, kh, kw, c) -> (kh, kw, c, f)>, affine_map<(n, oh, ow, f, kh, kw, c) -> (n, oh, ow, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x7x7x2xf32>, tensor<2x2x2x4xf32>) outs(%z : tensor<1x3x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x3x3x4xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce { arith.addf } ins(%c : tensor<1x3x3x4xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1, 2, 3]
  return %r : tensor<f32>
}
