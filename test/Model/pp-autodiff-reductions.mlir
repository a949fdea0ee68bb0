// pp-autodiff on reductions. A sum passes the output gradient to every term
// (the adjoint is a broadcast of it). A max reduction reads its own result:
// the accumulator stands for the final maximum, and the whole output
// gradient goes to every element equal to it (ties to the non-accumulator
// operand: d max/dx = [x >= max], i.e. [x == max]).
// RUN: pp-opt %s -pp-autodiff=function=f | FileCheck %s

// CHECK-DAG: #[[$X:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:.+]] = affine_map<(d0, d1) -> (d0)>

// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:    %[[X:.+]]: tensor<4x6xf32>) -> (tensor<f32>, tensor<4x6xf32>)
// CHECK:       %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[$X]], #[[$ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] :
// CHECK:       %[[MAX:.+]] = linalg.generic {indexing_maps = [#[[$X]], #[[$ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] :
// CHECK:       %[[LOSS:.+]] = linalg.generic
// loss = sum(s * m): ds = dl * m, dm = dl * s
// CHECK:       %[[DS:.+]] = linalg.generic {{.+}} ins(%[[MAX]], %{{.+}} : tensor<4xf32>, tensor<f32>)
// CHECK:       %[[DM:.+]] = linalg.generic {{.+}} ins(%[[SUM]], %{{.+}} : tensor<4xf32>, tensor<f32>)
// The max: reads x, the maximum and its gradient; no reduction left.
// CHECK:       %[[DXM:.+]] = linalg.generic {indexing_maps = [#[[$X]], #[[$ROW]], #[[$ROW]], #[[$X]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[MAX]], %[[DM]] : tensor<4x6xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:  ^bb0(%[[XE:.+]]: f32, %[[ME:.+]]: f32, %[[DME:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:    %[[WINS:.+]] = arith.cmpf oge, %[[XE]], %[[ME]] : f32
// CHECK-NEXT:    %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[G:.+]] = arith.select %[[WINS]], %[[DME]], %[[ZERO]] : f32
// CHECK-NEXT:    linalg.yield %[[G]] : f32
// The sum: a broadcast of its gradient.
// CHECK:       %[[DXS:.+]] = linalg.generic {indexing_maps = [#[[$ROW]], #[[$X]]], iterator_types = ["parallel", "parallel"]} ins(%[[DS]] : tensor<4xf32>)
// CHECK-NEXT:  ^bb0(%[[D:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:    linalg.yield %[[D]] : f32
// CHECK:       %[[DX:.+]] = linalg.generic {{.+}} ins(%[[DXM]], %[[DXS]] :
// CHECK:       return %[[LOSS]], %[[DX]] : tensor<f32>, tensor<4x6xf32>

#in = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#r1 = affine_map<(i) -> (i)>
#r0 = affine_map<(i) -> ()>
// rowsum(x) + rowmax(x), summed.
func.func @f(%x: tensor<4x6xf32>) -> tensor<f32> {
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %low = arith.constant dense<-1.0e30> : tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#in, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x6xf32>) outs(%zero : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %m = linalg.generic {indexing_maps = [#in, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x6xf32>) outs(%low : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %z = arith.constant dense<0.0> : tensor<f32>
  %l = linalg.generic {indexing_maps = [#r1, #r1, #r0], iterator_types = ["reduction"]} ins(%s, %m : tensor<4xf32>, tensor<4xf32>) outs(%z : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
