// pp-split-ops keeps a model's value: @split (a copy of @net) split into
// pieces computes the same loss and gradients as @net up to rounding (each
// element of a split op is computed once from the same operands, but a
// narrower GEMM may take another OpenBLAS kernel, and an input's gradient
// now sums the pieces' contributions in another order), and its gradients
// pass a finite-difference check. pp-run's --check stays bitwise: its
// reference is the split model too.

// RUN: pp-opt %s -pp-append-loss="function=net kind=mse" -pp-append-loss="function=split kind=mse" -pp-prepare-model -pp-split-ops="function=split_loss max-fraction=0.2" -pp-autodiff="function=net_loss" -pp-autodiff="function=split_loss" > %t.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: pp-exec %t.mlir --entry=net_loss --compare=split_loss --seed=3 --tolerance=1e-12 | FileCheck %s --check-prefix=LOSS
// RUN: pp-exec %t.mlir --entry=net_loss_grad --compare=split_loss_grad --seed=3 --tolerance=1e-12 | FileCheck %s --check-prefix=GRAD
// RUN: pp-exec %t.mlir --entry=split_loss --check-gradients --gradient=split_loss_grad | FileCheck %s --check-prefix=GRADCHECK

// The convolution splits along its 6 output channels, the matmul along its
// 10 output columns.
// REMARKS: remark: split into {{[2-9]}} pieces along loop d2 (range 6)
// REMARKS: remark: split into {{[2-9]}} pieces along loop d1 (range 10)
// LOSS: compare: results {{bitwise equal|differ: .* <= tolerance 1e-12}}
// GRAD: compare: results differ: max abs difference {{.*}}, max relative difference {{.*}} <= tolerance 1e-12
// GRADCHECK: gradient check PASSED

#x = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 2 + d3, d4)>
#k = affine_map<(d0, d1, d2, d3, d4) -> (d3, d4, d2)>
#y = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @net(%x: tensor<1x12x3xf64>, %k: tensor<3x3x6xf64> {pp.parameter},
    %w: tensor<10x30xf64> {pp.parameter}) -> tensor<1x10xf64> {
  %zero = arith.constant 0.0 : f64
  %e0 = tensor.empty() : tensor<1x5x6xf64>
  %z0 = linalg.fill ins(%zero : f64) outs(%e0 : tensor<1x5x6xf64>) -> tensor<1x5x6xf64>
  %conv = linalg.generic {indexing_maps = [#x, #k, #y], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %k : tensor<1x12x3xf64>, tensor<3x3x6xf64>) outs(%z0 : tensor<1x5x6xf64>) {
  ^bb0(%a: f64, %b: f64, %c: f64):
    %m = arith.mulf %a, %b : f64
    %s = arith.addf %c, %m : f64
    linalg.yield %s : f64
  } -> tensor<1x5x6xf64>
  %relu = linalg.map { math.tanh } ins(%conv : tensor<1x5x6xf64>) outs(%e0 : tensor<1x5x6xf64>)
  %flat = tensor.collapse_shape %relu [[0], [1, 2]] : tensor<1x5x6xf64> into tensor<1x30xf64>
  %e1 = tensor.empty() : tensor<30x10xf64>
  %wt = linalg.transpose ins(%w : tensor<10x30xf64>) outs(%e1 : tensor<30x10xf64>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<1x10xf64>
  %z2 = linalg.fill ins(%zero : f64) outs(%e2 : tensor<1x10xf64>) -> tensor<1x10xf64>
  %y = linalg.matmul ins(%flat, %wt : tensor<1x30xf64>, tensor<30x10xf64>) outs(%z2 : tensor<1x10xf64>) -> tensor<1x10xf64>
  return %y : tensor<1x10xf64>
}

func.func @split(%x: tensor<1x12x3xf64>, %k: tensor<3x3x6xf64> {pp.parameter},
    %w: tensor<10x30xf64> {pp.parameter}) -> tensor<1x10xf64> {
  %zero = arith.constant 0.0 : f64
  %e0 = tensor.empty() : tensor<1x5x6xf64>
  %z0 = linalg.fill ins(%zero : f64) outs(%e0 : tensor<1x5x6xf64>) -> tensor<1x5x6xf64>
  %conv = linalg.generic {indexing_maps = [#x, #k, #y], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %k : tensor<1x12x3xf64>, tensor<3x3x6xf64>) outs(%z0 : tensor<1x5x6xf64>) {
  ^bb0(%a: f64, %b: f64, %c: f64):
    %m = arith.mulf %a, %b : f64
    %s = arith.addf %c, %m : f64
    linalg.yield %s : f64
  } -> tensor<1x5x6xf64>
  %relu = linalg.map { math.tanh } ins(%conv : tensor<1x5x6xf64>) outs(%e0 : tensor<1x5x6xf64>)
  %flat = tensor.collapse_shape %relu [[0], [1, 2]] : tensor<1x5x6xf64> into tensor<1x30xf64>
  %e1 = tensor.empty() : tensor<30x10xf64>
  %wt = linalg.transpose ins(%w : tensor<10x30xf64>) outs(%e1 : tensor<30x10xf64>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<1x10xf64>
  %z2 = linalg.fill ins(%zero : f64) outs(%e2 : tensor<1x10xf64>) -> tensor<1x10xf64>
  %y = linalg.matmul ins(%flat, %wt : tensor<1x30xf64>, tensor<30x10xf64>) outs(%z2 : tensor<1x10xf64>) -> tensor<1x10xf64>
  return %y : tensor<1x10xf64>
}
