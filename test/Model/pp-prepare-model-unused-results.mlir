// pp-prepare-model drops the unused results of a multi-result
// linalg.generic, and what only they compute: torch-mlir's linalg lowering
// of aten.amax (softmax's max) is aten.max.dim, one generic that yields the
// max and its arg-max. The arg-max is unused, and its select also reads the
// max's accumulator, which pp-autodiff cannot differentiate; without it
// the max is a plain arith.maximumf reduction, which it can.
// RUN: pp-opt %s -pp-prepare-model | FileCheck %s
// RUN: pp-opt %s -pp-prepare-model -pp-autodiff=function=f | FileCheck %s --check-prefix=GRAD

// CHECK-LABEL: func.func @f(
// CHECK-NOT:     tensor<2xi64>
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]}
// CHECK-SAME:      outs(%{{.+}} : tensor<2xf32>)
// CHECK-NEXT:    ^bb0(%[[A:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT:      %[[M:.+]] = arith.maximumf %[[A]], %[[ACC]] : f32
// CHECK-NEXT:      linalg.yield %[[M]] : f32
// CHECK-NEXT:    } -> tensor<2xf32>
// CHECK-NOT:     arith.select
// The generic whose results are all used keeps both.
// CHECK-LABEL: func.func @both_used(
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]}
// CHECK:           arith.select
// CHECK:         } -> (tensor<2xf32>, tensor<2xi64>)

// GRAD-LABEL: func.func @f_grad(

#in = affine_map<(i, j) -> (i, j)>
#out = affine_map<(i, j) -> (i)>
func.func @f(%x: tensor<2x8xf32>) -> tensor<f32> {
  %ninf = arith.constant -3.40282347E+38 : f32
  %c0 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<2xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %ei = tensor.empty() : tensor<2xi64>
  %i0 = linalg.fill ins(%c0 : i64) outs(%ei : tensor<2xi64>) -> tensor<2xi64>
  %mx:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<2x8xf32>) outs(%m0, %i0 : tensor<2xf32>, tensor<2xi64>) {
  ^bb0(%a: f32, %acc: f32, %idx: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %m = arith.maximumf %a, %acc : f32
    %gt = arith.cmpf ogt, %a, %acc : f32
    %s = arith.select %gt, %ji, %idx : i64
    linalg.yield %m, %s : f32, i64
  } -> (tensor<2xf32>, tensor<2xi64>)
  %zero = arith.constant dense<0.0> : tensor<f32>
  %r = linalg.reduce { arith.addf } ins(%mx#0 : tensor<2xf32>) outs(%zero : tensor<f32>) dimensions = [0]
  return %r : tensor<f32>
}

func.func @both_used(%x: tensor<2x8xf32>) -> (tensor<2xf32>, tensor<2xi64>) {
  %ninf = arith.constant -3.40282347E+38 : f32
  %c0 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<2xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %ei = tensor.empty() : tensor<2xi64>
  %i0 = linalg.fill ins(%c0 : i64) outs(%ei : tensor<2xi64>) -> tensor<2xi64>
  %mx:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<2x8xf32>) outs(%m0, %i0 : tensor<2xf32>, tensor<2xi64>) {
  ^bb0(%a: f32, %acc: f32, %idx: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %m = arith.maximumf %a, %acc : f32
    %gt = arith.cmpf ogt, %a, %acc : f32
    %s = arith.select %gt, %ji, %idx : i64
    linalg.yield %m, %s : f32, i64
  } -> (tensor<2xf32>, tensor<2xi64>)
  return %mx#0, %mx#1 : tensor<2xf32>, tensor<2xi64>
}
