// pp-autodiff through tensor ops: concat (slices of the gradient), reshapes
// (the inverse reshape), pad (the unpadded slice), extract_slice (inserted
// into zeros), and an operand indexed by a constant 0 on its unit
// dimension (tosa-to-linalg's broadcasts): its adjoint reduces over the
// broadcast dimension and gets the unit dimension back by expand_shape.
// RUN: pp-opt %s -pp-autodiff=function=f | FileCheck %s

// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:    -> (tensor<f32>, tensor<2x3x4xf32>, tensor<1x4xf32>, tensor<2x4xf32>)
// CHECK:       %[[DCAT:.+]] = linalg.generic {{.+}} ins(%{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<4x8xf32>) outs(%{{.+}} : tensor<4x8xf32>)
// CHECK:       %[[DP:.+]] = tensor.extract_slice %[[DCAT]][0, 0] [4, 6] [1, 1] : tensor<4x8xf32> to tensor<4x6xf32>
// CHECK:       %[[DZC:.+]] = tensor.extract_slice %[[DCAT]][0, 6] [4, 2] [1, 1] : tensor<4x8xf32> to tensor<4x2xf32>
// CHECK:       %[[DZP:.+]] = tensor.expand_shape %[[DZC]] {{\[}}[0, 1], [2]] output_shape [2, 2, 2] : tensor<4x2xf32> into tensor<2x2x2xf32>
// CHECK:       %[[DZ:.+]] = tensor.collapse_shape %[[DZP]] {{\[}}[0], [1, 2]] : tensor<2x2x2xf32> into tensor<2x4xf32>
// CHECK:       %[[DS:.+]] = tensor.extract_slice %[[DP]][1, 0] [3, 4] [1, 1] : tensor<4x6xf32> to tensor<3x4xf32>
// CHECK:       %[[ZEROS:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<6x4xf32>)
// CHECK:       %[[DA:.+]] = tensor.insert_slice %[[DS]] into %[[ZEROS]][1, 0] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<6x4xf32>
// CHECK:       %[[DC:.+]] = linalg.generic {{.+}} ins(%[[DA]] : tensor<6x4xf32>)
// CHECK:       %[[DB4:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["reduction", "parallel"]} ins(%[[DA]] : tensor<6x4xf32>) outs(%{{.+}} : tensor<4xf32>)
// CHECK:       %[[DB:.+]] = tensor.expand_shape %[[DB4]] {{\[}}[0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
// CHECK:       %[[DX:.+]] = tensor.expand_shape %[[DC]] {{\[}}[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
// CHECK:       return %{{.+}}, %[[DX]], %[[DB]], %[[DZ]]

#id = affine_map<(i, j) -> (i, j)>
#bcast = affine_map<(i, j) -> (0, j)>
#none = affine_map<(i, j) -> ()>
func.func @f(%x: tensor<2x3x4xf32>, %b: tensor<1x4xf32>, %z: tensor<2x4xf32>) -> tensor<f32> {
  %cst = arith.constant 0.0 : f32
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %e = tensor.empty() : tensor<6x4xf32>
  // c + b, b broadcast along its unit dimension (as tosa-to-linalg writes it)
  %a = linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %b : tensor<6x4xf32>, tensor<1x4xf32>) outs(%e : tensor<6x4xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %s = arith.addf %u, %v : f32
    linalg.yield %s : f32
  } -> tensor<6x4xf32>
  %s = tensor.extract_slice %a[1, 0] [3, 4] [1, 1] : tensor<6x4xf32> to tensor<3x4xf32>
  %p = tensor.pad %s low[1, 0] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<3x4xf32> to tensor<4x6xf32>
  %zp = tensor.expand_shape %z [[0], [1, 2]] output_shape [2, 2, 2] : tensor<2x4xf32> into tensor<2x2x2xf32>
  %zc = tensor.collapse_shape %zp [[0, 1], [2]] : tensor<2x2x2xf32> into tensor<4x2xf32>
  %cat = tensor.concat dim(1) %p, %zc : (tensor<4x6xf32>, tensor<4x2xf32>) -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%cat : tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%u: f32, %o: f32):
    %m = arith.mulf %u, %u : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %zero = arith.constant dense<0.0> : tensor<f32>
  %l = linalg.generic {indexing_maps = [#id, #none], iterator_types = ["reduction", "reduction"]} ins(%sq : tensor<4x8xf32>) outs(%zero : tensor<f32>) {
  ^bb0(%u: f32, %acc: f32):
    %r = arith.addf %u, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
