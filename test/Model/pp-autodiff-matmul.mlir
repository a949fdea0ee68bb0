// pp-autodiff on a matmul-shaped linalg.generic: the adjoint of each operand
// is a generic over the same iteration space, written at that operand's
// map, the dimension missing from it reduced: dA = dC B^T, dB = A^T dC.
// RUN: pp-opt %s -pp-autodiff=function=f | FileCheck %s

// CHECK-DAG: #[[$A:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$B:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[$C:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[$ALL:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$NONE:.+]] = affine_map<(d0, d1) -> ()>

// The forward function is left as it is.
// CHECK-LABEL: func.func @f(
// CHECK-SAME:    -> tensor<f32>

// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:    %[[ARG_A:.+]]: tensor<3x4xf32>, %[[ARG_B:.+]]: tensor<4x5xf32>)
// CHECK-SAME:    -> (tensor<f32>, tensor<3x4xf32>, tensor<4x5xf32>)
// The forward computation, kept.
// CHECK:       %[[C_VAL:.+]] = linalg.generic {indexing_maps = [#[[$A]], #[[$B]], #[[$C]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK:       %[[LOSS:.+]] = linalg.generic {indexing_maps = [#[[$ALL]], #[[$NONE]]], iterator_types = ["reduction", "reduction"]} ins(%[[C_VAL]]
// The seed (dL/dL = 1) and the adjoint of the sum: a broadcast.
// CHECK:       %[[ONE:.+]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK:       %[[DC:.+]] = linalg.generic {indexing_maps = [#[[$NONE]], #[[$ALL]]], iterator_types = ["parallel", "parallel"]} ins(%[[ONE]] : tensor<f32>)
// CHECK-NEXT:  ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:    linalg.yield %[[IN]] : f32
// dA[i, k] = sum_j dC[i, j] * B[k, j]: k parallel, j reduced.
// CHECK:       %[[ZA:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<3x4xf32>)
// CHECK:       %[[DA:.+]] = linalg.generic {indexing_maps = [#[[$B]], #[[$C]], #[[$A]]], iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[ARG_B]], %[[DC]] : tensor<4x5xf32>, tensor<3x5xf32>) outs(%[[ZA]] : tensor<3x4xf32>)
// CHECK-NEXT:  ^bb0(%[[B_EL:.+]]: f32, %[[DC_EL:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT:    %[[P:.+]] = arith.mulf %[[DC_EL]], %[[B_EL]] : f32
// CHECK-NEXT:    %[[S:.+]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:    linalg.yield %[[S]] : f32
// dB[k, j] = sum_i A[i, k] * dC[i, j]: i reduced.
// CHECK:       %[[DB:.+]] = linalg.generic {indexing_maps = [#[[$A]], #[[$C]], #[[$B]]], iterator_types = ["reduction", "parallel", "parallel"]} ins(%[[ARG_A]], %[[DC]] : tensor<3x4xf32>, tensor<3x5xf32>)
// CHECK:       return %[[LOSS]], %[[DA]], %[[DB]] : tensor<f32>, tensor<3x4xf32>, tensor<4x5xf32>

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#all = affine_map<(i, j) -> (i, j)>
#none = affine_map<(i, j) -> ()>
func.func @f(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<f32> {
  %zero = arith.constant dense<0.0> : tensor<3x5xf32>
  %c = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<3x4xf32>, tensor<4x5xf32>) outs(%zero : tensor<3x5xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<3x5xf32>
  %z = arith.constant dense<0.0> : tensor<f32>
  %l = linalg.generic {indexing_maps = [#all, #none], iterator_types = ["reduction", "reduction"]} ins(%c : tensor<3x5xf32>) outs(%z : tensor<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
