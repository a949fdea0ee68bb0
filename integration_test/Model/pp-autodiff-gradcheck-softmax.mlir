// Gradient check of softmax: linalg.softmax (decomposed by
// pp-prepare-model into a max reduction, exp, a sum and a division) and a
// log-softmax written out with linalg.reduce/broadcast and elementwise ops.
// In f32 and f64.
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=softmax -o %t.softmax.mlir
// RUN: pp-exec %t.softmax.mlir --check-gradients --entry=softmax --gradient=softmax_grad | FileCheck %s
// RUN: sed 's/f32/f64/g' %s | pp-opt --pp-prepare-model --pp-autodiff=function=softmax -o %t.softmax.f64.mlir
// RUN: pp-exec %t.softmax.f64.mlir --check-gradients --entry=softmax --gradient=softmax_grad | FileCheck %s

// CHECK: gradient check PASSED

// sum(x * (softmax(x) * w + logsoftmax(w)))
func.func @softmax(%x: tensor<3x5xf32>, %w: tensor<3x5xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -1.0e30 : f32
  %e = tensor.empty() : tensor<3x5xf32>
  %sm = linalg.softmax dimension(1) ins(%x : tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  %p = arith.mulf %sm, %w : tensor<3x5xf32>
  // log-softmax of w by hand: w - max - log(sum(exp(w - max)))
  %e3 = tensor.empty() : tensor<3xf32>
  %m3 = linalg.fill ins(%ninf : f32) outs(%e3 : tensor<3xf32>) -> tensor<3xf32>
  %mx = linalg.reduce { arith.maxnumf } ins(%w : tensor<3x5xf32>) outs(%m3 : tensor<3xf32>) dimensions = [1]
  %mxb = linalg.broadcast ins(%mx : tensor<3xf32>) outs(%e : tensor<3x5xf32>) dimensions = [1]
  %sh = arith.subf %w, %mxb : tensor<3x5xf32>
  %ex = math.exp %sh : tensor<3x5xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3xf32>) -> tensor<3xf32>
  %se = linalg.reduce { arith.addf } ins(%ex : tensor<3x5xf32>) outs(%z3 : tensor<3xf32>) dimensions = [1]
  %lse = math.log %se : tensor<3xf32>
  %lseb = linalg.broadcast ins(%lse : tensor<3xf32>) outs(%e : tensor<3x5xf32>) dimensions = [1]
  %ls = arith.subf %sh, %lseb : tensor<3x5xf32>
  %t = arith.addf %p, %ls : tensor<3x5xf32>
  %t2 = arith.mulf %t, %x : tensor<3x5xf32>
  %e0 = tensor.empty() : tensor<f32>
  %i0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce { arith.addf } ins(%t2 : tensor<3x5xf32>) outs(%i0 : tensor<f32>) dimensions = [0, 1]
  return %s : tensor<f32>
}
