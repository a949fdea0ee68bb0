// Gradient checks of reductions: a sum over rows (linalg.reduce), a max
// over columns (linalg.reduce with arith.maximumf), a min of exp(y) over
// rows written as a linalg.generic, combined and summed. In f32 and f64.
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=reductions -o %t.reductions.mlir
// RUN: pp-exec %t.reductions.mlir --check-gradients --entry=reductions --gradient=reductions_grad | FileCheck %s
// RUN: sed 's/f32/f64/g' %s | pp-opt --pp-prepare-model --pp-autodiff=function=reductions -o %t.reductions.f64.mlir
// RUN: pp-exec %t.reductions.f64.mlir --check-gradients --entry=reductions --gradient=reductions_grad | FileCheck %s

// CHECK: gradient check PASSED

// sum_i rowsum(x * x)_i + sum_j colmax(x)_j * rowmin(exp(y))_j
func.func @reductions(%x: tensor<4x6xf32>, %y: tensor<6x4xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -1.0e30 : f32
  %pinf = arith.constant 1.0e30 : f32
  %sq = arith.mulf %x, %x : tensor<4x6xf32>
  %e4 = tensor.empty() : tensor<4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %rows = linalg.reduce { arith.addf } ins(%sq : tensor<4x6xf32>) outs(%z4 : tensor<4xf32>) dimensions = [1]
  %e6 = tensor.empty() : tensor<6xf32>
  %m6 = linalg.fill ins(%ninf : f32) outs(%e6 : tensor<6xf32>) -> tensor<6xf32>
  %cols = linalg.reduce { arith.maximumf } ins(%x : tensor<4x6xf32>) outs(%m6 : tensor<6xf32>) dimensions = [0]
  %p6 = linalg.fill ins(%pinf : f32) outs(%e6 : tensor<6xf32>) -> tensor<6xf32>
  %mins = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%y : tensor<6x4xf32>) outs(%p6 : tensor<6xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = math.exp %a : f32
    %m = arith.minimumf %acc, %t : f32
    linalg.yield %m : f32
  } -> tensor<6xf32>
  %c = arith.mulf %cols, %mins : tensor<6xf32>
  %e0 = tensor.empty() : tensor<f32>
  %i0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %s1 = linalg.reduce { arith.addf } ins(%rows : tensor<4xf32>) outs(%i0 : tensor<f32>) dimensions = [0]
  %s2 = linalg.reduce { arith.addf } ins(%c : tensor<6xf32>) outs(%s1 : tensor<f32>) dimensions = [0]
  return %s2 : tensor<f32>
}
