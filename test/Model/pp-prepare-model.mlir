// pp-prepare-model on linalg: the private helper is inlined (and erased),
// elementwise arith on tensors and named ops (transpose, fill, matmul,
// broadcast) become linalg.generic, linalg.softmax is decomposed
// (max, exp of the difference, sum, divide); convolutions stay named.
// RUN: pp-opt %s -pp-prepare-model | FileCheck %s

// CHECK-DAG: #[[$T:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$MA:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$MB:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[$MC:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:.+]] = affine_map<(d0, d1) -> (d0)>

// CHECK-NOT:   @relu
// CHECK-LABEL: func.func @model(
// CHECK-NOT:     linalg.transpose
// CHECK-NOT:     linalg.matmul
// CHECK-NOT:     linalg.broadcast
// CHECK-NOT:     linalg.softmax
// CHECK-NOT:     call
// CHECK:         linalg.generic {indexing_maps = [#[[$T]], #[[$ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK:         linalg.generic {indexing_maps = [#[[$MA]], #[[$MB]], #[[$MC]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-NEXT:    ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT:      %[[P:.+]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:      arith.addf %[[ACC]], %[[P]] : f32
// CHECK:           arith.addf
// The inlined relu.
// CHECK:           arith.maximumf
// The softmax.
// CHECK:         linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]]], iterator_types = ["parallel", "reduction"]}
// CHECK:           arith.maxnumf
// CHECK:           arith.subf
// CHECK-NEXT:      math.exp
// CHECK:         linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]]], iterator_types = ["parallel", "reduction"]}
// CHECK:           arith.addf
// CHECK:           arith.divf
// CHECK:         linalg.conv_1d_nwc_wcf
// CHECK:         return

func.func private @relu(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %zero = arith.constant dense<0.0> : tensor<2x5xf32>
  %r = arith.maximumf %x, %zero : tensor<2x5xf32>
  return %r : tensor<2x5xf32>
}
func.func @model(%x: tensor<2x4xf32>, %w: tensor<5x4xf32>, %b: tensor<5xf32>, %k: tensor<3x1x2xf32>, %s: tensor<1x6x1xf32>) -> (tensor<2x5xf32>, tensor<1x4x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<4x5xf32>
  %wt = linalg.transpose ins(%w : tensor<5x4xf32>) outs(%et : tensor<4x5xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<2x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5xf32>) -> tensor<2x5xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<2x4xf32>, tensor<4x5xf32>) outs(%z : tensor<2x5xf32>) -> tensor<2x5xf32>
  %bb = linalg.broadcast ins(%b : tensor<5xf32>) outs(%e : tensor<2x5xf32>) dimensions = [0]
  %yb = arith.addf %y, %bb : tensor<2x5xf32>
  %r = func.call @relu(%yb) : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %sm = linalg.softmax dimension(1) ins(%r : tensor<2x5xf32>) outs(%e : tensor<2x5xf32>) -> tensor<2x5xf32>
  %ec = tensor.empty() : tensor<1x4x2xf32>
  %zc = linalg.fill ins(%zero : f32) outs(%ec : tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  %c = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%s, %k : tensor<1x6x1xf32>, tensor<3x1x2xf32>) outs(%zc : tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  return %sm, %c : tensor<2x5xf32>, tensor<1x4x2xf32>
}
