// --check-gradients --entry=F --gradient=G: F(args) -> scalar loss,
// G(args) -> (loss, dL/d arg_i for each checked argument i). The gradients
// are compared with central finite differences of F along random directions
// and at random coordinates (docs/Execution.md), F recompiled in f64 for
// them; a wrong gradient fails with exit status 1.

// L(x, w) = sum(tanh(x w)^2) with its hand-written gradient.
// RUN: pp-exec %s --entry=loss --check-gradients --gradient=loss_grad | FileCheck %s --check-prefix=PASS
// PASS:      gradient check of @loss against @loss_grad: 2 arguments, 3 random directions and 8 coordinates each, epsilon 1e-06, tolerance 0.01
// PASS-NEXT:   finite differences of @loss recompiled in f64
// PASS-NEXT:   loss: @loss [[LOSS:[0-9.]+]], @loss_grad [[LOSS]], relative error 0
// PASS-NEXT:   argument 0 (tensor<4x3xf32>): max relative error {{.*}} (worst: {{.*}})
// PASS-NEXT:   argument 1 (tensor<3x2xf32>): max relative error {{.*}} (worst: {{.*}})
// PASS-NEXT: gradient check PASSED: max relative error {{.*}} <= tolerance 0.01

// Finite differences of F in f32 as written: a larger step (1e-3), less
// accurate, still well within the tolerance here.
// RUN: pp-exec %s --entry=loss --check-gradients --gradient=loss_grad --fd-precision=f32 | FileCheck %s --check-prefix=FD32
// RUN: not pp-exec %s --entry=loss --check-gradients --gradient=loss_grad_wrong --fd-precision=f32 | FileCheck %s --check-prefix=FD32-WRONG
// FD32:      epsilon 0.001, tolerance 0.01
// FD32-NEXT:   finite differences of @loss in its own types (--fd-precision=f32)
// FD32:      gradient check PASSED
// FD32-WRONG: gradient check FAILED

// Other seeds, more samples, every sample printed.
// RUN: pp-exec %s --entry=loss --check-gradients --gradient=loss_grad --seed=11 --directions=5 --coordinates=20 --verbose | FileCheck %s --check-prefix=VERBOSE
// VERBOSE: 2 arguments, 5 random directions and 20 coordinates each
// VERBOSE-COUNT-5: argument 0 direction {{[0-9]}}: finite difference {{.*}}, gradient {{.*}}, relative error
// 12 coordinates: all of them.
// VERBOSE-COUNT-12: argument 0 coordinate [{{[0-9]}}, {{[0-9]}}]: finite difference
// VERBOSE:     argument 0 (tensor<4x3xf32>)
// VERBOSE-COUNT-5: argument 1 direction
// VERBOSE-COUNT-6: argument 1 coordinate
// VERBOSE:     gradient check PASSED

// The tanh derivative left out: fails, and says where.
// RUN: not pp-exec %s --entry=loss --check-gradients --gradient=loss_grad_wrong | FileCheck %s --check-prefix=WRONG
// WRONG:      argument 0 (tensor<4x3xf32>): max relative error {{.*}} (worst: {{.*}})
// WRONG:      gradient check FAILED: max relative error {{.*}} > tolerance 0.01 (worst: argument {{[01]}} {{.*}})

// Only the gradient for w wrong (transposed x): argument 0 passes, 1 fails.
// RUN: not pp-exec %s --entry=loss --check-gradients --gradient=loss_grad_wrong_w | FileCheck %s --check-prefix=WRONG-W
// WRONG-W:      argument 0 (tensor<4x3xf32>): max relative error {{0\.00[0-9]*|[0-9.]+e-[0-9]+}} (worst
// WRONG-W:      gradient check FAILED: {{.*}} (worst: argument 1 {{.*}})

// --wrt: G returns the gradients of some arguments only.
// RUN: pp-exec %s --entry=loss --check-gradients --gradient=loss_grad_w --wrt=1 | FileCheck %s --check-prefix=WRT
// WRT:      gradient check of @loss against @loss_grad_w: 1 argument,
// WRT-NOT:  argument 0 (
// WRT:        argument 1 (tensor<3x2xf32>): max relative error
// WRT:      gradient check PASSED

// Integer arguments (labels, indices) are not differentiated: by default
// G returns gradients for the float arguments only.
// RUN: pp-exec %s --entry=weighted --check-gradients --gradient=weighted_grad | FileCheck %s --check-prefix=INT
// INT:      gradient check of @weighted against @weighted_grad: 1 argument,
// INT:        argument 0 (tensor<5xf32>): max relative error
// INT:      gradient check PASSED

// A loss that converts f32 to f64 itself cannot be promoted to f64: the
// finite differences use F as written, and say why.
// RUN: pp-exec %s --entry=mixed --check-gradients --gradient=mixed_grad | FileCheck %s --check-prefix=MIXED
// MIXED:      epsilon 0.001, tolerance 0.01
// MIXED-NEXT:   finite differences of @mixed in its own types (@mixed cannot be recompiled in f64: 'arith.extf' op
// MIXED:      gradient check PASSED

// f64: step 1e-6, tolerance 1e-6 by default.
// RUN: pp-exec %s --entry=cube --check-gradients --gradient=cube_grad | FileCheck %s --check-prefix=F64
// RUN: not pp-exec %s --entry=cube --check-gradients --gradient=cube_grad_wrong | FileCheck %s --check-prefix=F64-WRONG
// F64:       epsilon 1e-06, tolerance 1e-06
// F64:         argument 0 (tensor<6xf64>): max relative error
// F64:       gradient check PASSED
// F64-WRONG: gradient check FAILED

// A tolerance so loose that the wrong gradient passes, and one so strict
// that f32 finite differences fail the right one.
// RUN: pp-exec %s --entry=loss --check-gradients --gradient=loss_grad_wrong --tolerance=10 | FileCheck %s --check-prefix=LOOSE
// RUN: not pp-exec %s --entry=loss --check-gradients --gradient=loss_grad --tolerance=1e-9 | FileCheck %s --check-prefix=STRICT
// LOOSE:  gradient check PASSED: max relative error {{.*}} <= tolerance 10
// STRICT: gradient check FAILED: max relative error {{.*}} > tolerance 1e-09

#elementwise = affine_map<(i, j) -> (i, j)>
#ik = affine_map<(i, j, k) -> (i, k)>
#kj = affine_map<(i, j, k) -> (k, j)>
#jk = affine_map<(i, j, k) -> (j, k)>
#ki = affine_map<(i, j, k) -> (k, i)>
#ij = affine_map<(i, j, k) -> (i, j)>

// tanh(x w) and the loss sum(tanh(x w)^2).
func.func private @forward(%x: tensor<4x3xf32>, %w: tensor<3x2xf32>) -> (tensor<4x2xf32>, tensor<f32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x3xf32>, tensor<3x2xf32>) outs(%init : tensor<4x2xf32>) -> tensor<4x2xf32>
  %z = linalg.map { math.tanh } ins(%y : tensor<4x2xf32>) outs(%e : tensor<4x2xf32>)
  %sq = linalg.map { arith.mulf } ins(%z, %z : tensor<4x2xf32>, tensor<4x2xf32>) outs(%e : tensor<4x2xf32>)
  %s = tensor.empty() : tensor<f32>
  %sinit = linalg.fill ins(%zero : f32) outs(%s : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%sq : tensor<4x2xf32>) outs(%sinit : tensor<f32>) dimensions = [0, 1]
  return %z, %l : tensor<4x2xf32>, tensor<f32>
}

func.func @loss(%x: tensor<4x3xf32>, %w: tensor<3x2xf32>) -> tensor<f32> {
  %z, %l = call @forward(%x, %w) : (tensor<4x3xf32>, tensor<3x2xf32>) -> (tensor<4x2xf32>, tensor<f32>)
  return %l : tensor<f32>
}

// dL/dy = 2 z (1 - z^2), or 2 z when `tanh_derivative` is false.
func.func private @dy(%z: tensor<4x2xf32>, %tanh_derivative: i1) -> tensor<4x2xf32> {
  %e = tensor.empty() : tensor<4x2xf32>
  %dy = linalg.generic {indexing_maps = [#elementwise, #elementwise], iterator_types = ["parallel", "parallel"]}
      ins(%z : tensor<4x2xf32>) outs(%e : tensor<4x2xf32>) {
  ^bb0(%zi: f32, %out: f32):
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %zz = arith.mulf %zi, %zi : f32
    %d = arith.subf %one, %zz : f32
    %dt = arith.select %tanh_derivative, %d, %one : f32
    %t = arith.mulf %zi, %dt : f32
    %r = arith.mulf %t, %two : f32
    linalg.yield %r : f32
  } -> tensor<4x2xf32>
  return %dy : tensor<4x2xf32>
}

// dL/dx = dy w^T
func.func private @dx(%dy: tensor<4x2xf32>, %w: tensor<3x2xf32>) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %dx = linalg.generic {indexing_maps = [#ik, #jk, #ij], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%dy, %w : tensor<4x2xf32>, tensor<3x2xf32>) outs(%init : tensor<4x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x3xf32>
  return %dx : tensor<4x3xf32>
}

// dL/dw = x^T dy
func.func private @dw(%x: tensor<4x3xf32>, %dy: tensor<4x2xf32>) -> tensor<3x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %dw = linalg.generic {indexing_maps = [#ki, #kj, #ij], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %dy : tensor<4x3xf32>, tensor<4x2xf32>) outs(%init : tensor<3x2xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x2xf32>
  return %dw : tensor<3x2xf32>
}

func.func @loss_grad(%x: tensor<4x3xf32>, %w: tensor<3x2xf32>) -> (tensor<f32>, tensor<4x3xf32>, tensor<3x2xf32>) {
  %z, %l = call @forward(%x, %w) : (tensor<4x3xf32>, tensor<3x2xf32>) -> (tensor<4x2xf32>, tensor<f32>)
  %true = arith.constant true
  %dy = call @dy(%z, %true) : (tensor<4x2xf32>, i1) -> tensor<4x2xf32>
  %dx = call @dx(%dy, %w) : (tensor<4x2xf32>, tensor<3x2xf32>) -> tensor<4x3xf32>
  %dw = call @dw(%x, %dy) : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  return %l, %dx, %dw : tensor<f32>, tensor<4x3xf32>, tensor<3x2xf32>
}

func.func @loss_grad_wrong(%x: tensor<4x3xf32>, %w: tensor<3x2xf32>) -> (tensor<f32>, tensor<4x3xf32>, tensor<3x2xf32>) {
  %z, %l = call @forward(%x, %w) : (tensor<4x3xf32>, tensor<3x2xf32>) -> (tensor<4x2xf32>, tensor<f32>)
  %false = arith.constant false
  %dy = call @dy(%z, %false) : (tensor<4x2xf32>, i1) -> tensor<4x2xf32>
  %dx = call @dx(%dy, %w) : (tensor<4x2xf32>, tensor<3x2xf32>) -> tensor<4x3xf32>
  %dw = call @dw(%x, %dy) : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  return %l, %dx, %dw : tensor<f32>, tensor<4x3xf32>, tensor<3x2xf32>
}

// dw computed from the rows of x in reverse order.
func.func @loss_grad_wrong_w(%x: tensor<4x3xf32>, %w: tensor<3x2xf32>) -> (tensor<f32>, tensor<4x3xf32>, tensor<3x2xf32>) {
  %z, %l = call @forward(%x, %w) : (tensor<4x3xf32>, tensor<3x2xf32>) -> (tensor<4x2xf32>, tensor<f32>)
  %true = arith.constant true
  %dy = call @dy(%z, %true) : (tensor<4x2xf32>, i1) -> tensor<4x2xf32>
  %dx = call @dx(%dy, %w) : (tensor<4x2xf32>, tensor<3x2xf32>) -> tensor<4x3xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %xr = linalg.generic {indexing_maps = [affine_map<(i, j) -> (3 - i, j)>, #elementwise], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x3xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  } -> tensor<4x3xf32>
  %dw = call @dw(%xr, %dy) : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  return %l, %dx, %dw : tensor<f32>, tensor<4x3xf32>, tensor<3x2xf32>
}

func.func @loss_grad_w(%x: tensor<4x3xf32>, %w: tensor<3x2xf32>) -> (tensor<f32>, tensor<3x2xf32>) {
  %l, %dx, %dw = call @loss_grad(%x, %w) : (tensor<4x3xf32>, tensor<3x2xf32>) -> (tensor<f32>, tensor<4x3xf32>, tensor<3x2xf32>)
  return %l, %dw : tensor<f32>, tensor<3x2xf32>
}

// L(x, k) = sum(x * k) for integer weights k (seeded inputs: 0..9).
func.func @weighted(%x: tensor<5xf32>, %k: tensor<5xi32>) -> tensor<1xf32> {
  %l, %g = call @weighted_grad(%x, %k) : (tensor<5xf32>, tensor<5xi32>) -> (tensor<1xf32>, tensor<5xf32>)
  return %l : tensor<1xf32>
}
func.func @weighted_grad(%x: tensor<5xf32>, %k: tensor<5xi32>) -> (tensor<1xf32>, tensor<5xf32>) {
  %e = tensor.empty() : tensor<5xf32>
  %kf = linalg.map { arith.sitofp } ins(%k : tensor<5xi32>) outs(%e : tensor<5xf32>)
  %p = linalg.mul ins(%x, %kf : tensor<5xf32>, tensor<5xf32>) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %zero = arith.constant 0.0 : f32
  %s = tensor.empty() : tensor<f32>
  %sinit = linalg.fill ins(%zero : f32) outs(%s : tensor<f32>) -> tensor<f32>
  %sum = linalg.reduce { arith.addf } ins(%p : tensor<5xf32>) outs(%sinit : tensor<f32>) dimensions = [0]
  %l = tensor.expand_shape %sum [] output_shape [1] : tensor<f32> into tensor<1xf32>
  return %l, %kf : tensor<1xf32>, tensor<5xf32>
}

// L(x) = sum(x^3) in f64, dL/dx = 3 x^2 (or 2 x^2, wrong).
func.func @cube(%x: tensor<6xf64>) -> tensor<f64> {
  %l, %g = call @cube_grad(%x) : (tensor<6xf64>) -> (tensor<f64>, tensor<6xf64>)
  return %l : tensor<f64>
}
func.func private @cube_and_grad(%x: tensor<6xf64>, %k: f64) -> (tensor<f64>, tensor<6xf64>) {
  %e = tensor.empty() : tensor<6xf64>
  %x2 = linalg.mul ins(%x, %x : tensor<6xf64>, tensor<6xf64>) outs(%e : tensor<6xf64>) -> tensor<6xf64>
  %x3 = linalg.mul ins(%x2, %x : tensor<6xf64>, tensor<6xf64>) outs(%e : tensor<6xf64>) -> tensor<6xf64>
  %zero = arith.constant 0.0 : f64
  %s = tensor.empty() : tensor<f64>
  %sinit = linalg.fill ins(%zero : f64) outs(%s : tensor<f64>) -> tensor<f64>
  %l = linalg.reduce { arith.addf } ins(%x3 : tensor<6xf64>) outs(%sinit : tensor<f64>) dimensions = [0]
  %kt = linalg.fill ins(%k : f64) outs(%e : tensor<6xf64>) -> tensor<6xf64>
  %g = linalg.mul ins(%x2, %kt : tensor<6xf64>, tensor<6xf64>) outs(%e : tensor<6xf64>) -> tensor<6xf64>
  return %l, %g : tensor<f64>, tensor<6xf64>
}
func.func @cube_grad(%x: tensor<6xf64>) -> (tensor<f64>, tensor<6xf64>) {
  %three = arith.constant 3.0 : f64
  %l, %g = call @cube_and_grad(%x, %three) : (tensor<6xf64>, f64) -> (tensor<f64>, tensor<6xf64>)
  return %l, %g : tensor<f64>, tensor<6xf64>
}
func.func @cube_grad_wrong(%x: tensor<6xf64>) -> (tensor<f64>, tensor<6xf64>) {
  %two = arith.constant 2.0 : f64
  %l, %g = call @cube_and_grad(%x, %two) : (tensor<6xf64>, f64) -> (tensor<f64>, tensor<6xf64>)
  return %l, %g : tensor<f64>, tensor<6xf64>
}

// L(x) = sum(f64(x)^2), dL/dx = 2 x.
func.func @mixed(%x: tensor<3xf32>) -> tensor<f64> {
  %l, %g = call @mixed_grad(%x) : (tensor<3xf32>) -> (tensor<f64>, tensor<3xf32>)
  return %l : tensor<f64>
}
func.func @mixed_grad(%x: tensor<3xf32>) -> (tensor<f64>, tensor<3xf32>) {
  %e = tensor.empty() : tensor<3xf64>
  %xd = linalg.map { arith.extf } ins(%x : tensor<3xf32>) outs(%e : tensor<3xf64>)
  %sq = linalg.mul ins(%xd, %xd : tensor<3xf64>, tensor<3xf64>) outs(%e : tensor<3xf64>) -> tensor<3xf64>
  %zero = arith.constant 0.0 : f64
  %s = tensor.empty() : tensor<f64>
  %sinit = linalg.fill ins(%zero : f64) outs(%s : tensor<f64>) -> tensor<f64>
  %l = linalg.reduce { arith.addf } ins(%sq : tensor<3xf64>) outs(%sinit : tensor<f64>) dimensions = [0]
  %ef = tensor.empty() : tensor<3xf32>
  %g = linalg.add ins(%x, %x : tensor<3xf32>, tensor<3xf32>) outs(%ef : tensor<3xf32>) -> tensor<3xf32>
  return %l, %g : tensor<f64>, tensor<3xf32>
}
