// pp-autodiff on elementwise linalg.generic ops: each adjoint copies the
// forward body, differentiates it in reverse mode, and writes every element
// once (all iterators parallel, tensor.empty init). %x has two uses: its
// two gradient contributions are added.
// RUN: pp-opt %s -pp-autodiff=function=f | FileCheck %s

// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$NONE:.+]] = affine_map<(d0, d1) -> ()>

// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:    %[[X:.+]]: tensor<2x3xf32>, %[[Y:.+]]: tensor<2x3xf32>)
// CHECK-SAME:    -> (tensor<f32>, tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK:       %[[P:.+]] = linalg.generic {{.+}} ins(%[[X]], %[[Y]] :
// CHECK:       %[[Q:.+]] = linalg.generic {{.+}} ins(%[[P]], %[[X]] :
// CHECK:       %[[LOSS:.+]] = linalg.generic {{.+}} ins(%[[Q]] :
// CHECK:       %[[DQ:.+]] = linalg.generic {indexing_maps = [#[[$NONE]], #[[$ID]]]
// q = p / x: dp = dq / x
// CHECK:       %[[DP:.+]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[DQ]] : {{.+}}) outs(%{{.+}} : tensor<2x3xf32>)
// CHECK-NEXT:  ^bb0(%[[X1:.+]]: f32, %[[DQ1:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:    %[[R:.+]] = arith.divf %[[DQ1]], %[[X1]] : f32
// CHECK-NEXT:    linalg.yield %[[R]] : f32
// dx (from q) = -dq * q / x
// CHECK:       %[[DX1:.+]] = linalg.generic {{.+}} ins(%[[P]], %[[X]], %[[DQ]] :
// CHECK-NEXT:  ^bb0(%[[P2:.+]]: f32, %[[X2:.+]]: f32, %[[DQ2:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:    %[[Q2:.+]] = arith.divf %[[P2]], %[[X2]] : f32
// CHECK-NEXT:    %[[T0:.+]] = arith.mulf %[[DQ2]], %[[Q2]] : f32
// CHECK-NEXT:    %[[T1:.+]] = arith.divf %[[T0]], %[[X2]] : f32
// CHECK-NEXT:    %[[T2:.+]] = arith.negf %[[T1]] : f32
// CHECK-NEXT:    linalg.yield %[[T2]] : f32
// dx (from p = x * y + exp(x)) = dp * exp(x) + dp * y
// CHECK:       %[[DX2:.+]] = linalg.generic {{.+}} ins(%[[X]], %[[Y]], %[[DP]] :
// CHECK-NEXT:  ^bb0(%[[X3:.+]]: f32, %[[Y3:.+]]: f32, %[[DP3:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:    %[[E:.+]] = math.exp %[[X3]] : f32
// CHECK-NEXT:    %[[U0:.+]] = arith.mulf %[[DP3]], %[[E]] : f32
// CHECK-NEXT:    %[[U1:.+]] = arith.mulf %[[DP3]], %[[Y3]] : f32
// CHECK-NEXT:    %[[U2:.+]] = arith.addf %[[U0]], %[[U1]] : f32
// CHECK-NEXT:    linalg.yield %[[U2]] : f32
// The two contributions to dx, added.
// CHECK:       %[[DX:.+]] = linalg.generic {{.+}} ins(%[[DX1]], %[[DX2]] :
// CHECK-NEXT:  ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:    %[[S:.+]] = arith.addf %[[A]], %[[B]] : f32
// dy = dp * x
// CHECK:       %[[DY:.+]] = linalg.generic {{.+}} ins(%[[X]], %[[DP]] :
// CHECK-NEXT:  ^bb0(%[[X4:.+]]: f32, %[[DP4:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:    arith.mulf %[[DP4]], %[[X4]] : f32
// CHECK:       return %[[LOSS]], %[[DX]], %[[DY]]

#id = affine_map<(i, j) -> (i, j)>
#none = affine_map<(i, j) -> ()>
func.func @f(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %t = math.exp %a : f32
    %s = arith.addf %m, %t : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%0, %x : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<2x3xf32>
  %z = arith.constant dense<0.0> : tensor<f32>
  %l = linalg.generic {indexing_maps = [#id, #none], iterator_types = ["reduction", "reduction"]} ins(%1 : tensor<2x3xf32>) outs(%z : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
