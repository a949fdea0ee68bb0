// pp-autodiff cotangents=true: a function with two tensor results (and an
// integer one, which takes no cotangent) gets @f_grad(args..., dy0, dy1)
// returning its results and the vector-Jacobian products.
// RUN: pp-opt %s -pp-autodiff="function=f cotangents=true wrt=0,1" -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// @via_vjp computes the loss sum(y0 * c0) + sum(y1 * c1) and takes its
// gradient from @f_grad seeded with (c0, c1): checked against finite
// differences of @loss.
// (@via_vjp calls @f_grad, so it joins the module after the pass.)
// RUN: sed -e '/^module {$/d' -e '/^}$/d' %t.mlir > %t.body.mlir
// RUN: cat %t.body.mlir %pp_src_root/test/Model/Inputs/via-vjp.mlir > %t.check.mlir
// RUN: pp-exec %t.check.mlir --entry=loss --check-gradients --gradient=via_vjp --wrt=0,1 | FileCheck %s --check-prefix=GRADCHECK
// Without cotangents=true a non-scalar result is refused, with the hint.
// RUN: not pp-opt %s -pp-autodiff=function=f 2>&1 | FileCheck %s --check-prefix=SCALAR
// A function without float results has nothing to take cotangents for.
// RUN: not pp-opt %s -pp-autodiff="function=ints cotangents=true" 2>&1 | FileCheck %s --check-prefix=NOFLOAT

// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:    %{{.+}}: tensor<3x4xf32>, %{{.+}}: tensor<4x2xf32>, %{{.+}}: tensor<3x2xf32>, %{{.+}}: tensor<3xf32>)
// CHECK-SAME:    -> (tensor<3x2xf32>, tensor<3xf32>, tensor<3xi32>, tensor<3x4xf32>, tensor<4x2xf32>)

// GRADCHECK: gradient check PASSED
// SCALAR: error: '@f' must return one scalar loss (a float, tensor<f32> or a one-element float tensor), but returns (tensor<3x2xf32>, tensor<3xf32>, tensor<3xi32>); append a loss first (pp-append-loss), or take the gradients of the results as arguments (cotangents=true)
// NOFLOAT: error: '@ints' has no float result to take cotangents for; it returns (tensor<3xi32>)

// y0 = tanh(a b); y1 = row sums of exp(a); y2 = an integer tensor.
func.func @f(%a: tensor<3x4xf32>, %b: tensor<4x2xf32>) -> (tensor<3x2xf32>, tensor<3xf32>, tensor<3xi32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %m = linalg.matmul ins(%a, %b : tensor<3x4xf32>, tensor<4x2xf32>) outs(%z : tensor<3x2xf32>) -> tensor<3x2xf32>
  %y0 = linalg.map { math.tanh } ins(%m : tensor<3x2xf32>) outs(%e : tensor<3x2xf32>)
  %ea = tensor.empty() : tensor<3x4xf32>
  %x = linalg.map { math.exp } ins(%a : tensor<3x4xf32>) outs(%ea : tensor<3x4xf32>)
  %e1 = tensor.empty() : tensor<3xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<3xf32>) -> tensor<3xf32>
  %y1 = linalg.reduce { arith.addf } ins(%x : tensor<3x4xf32>) outs(%z1 : tensor<3xf32>) dimensions = [1]
  %y2 = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
  return %y0, %y1, %y2 : tensor<3x2xf32>, tensor<3xf32>, tensor<3xi32>
}

func.func @ints(%a: tensor<3x4xf32>) -> tensor<3xi32> {
  %y = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
  return %y : tensor<3xi32>
}

// sum(y0 * c0) + sum(y1 * c1)
func.func private @dot(%y0: tensor<3x2xf32>, %y1: tensor<3xf32>, %c0: tensor<3x2xf32>, %c1: tensor<3xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<3x2xf32>
  %p0 = linalg.mul ins(%y0, %c0 : tensor<3x2xf32>, tensor<3x2xf32>) outs(%e0 : tensor<3x2xf32>) -> tensor<3x2xf32>
  %e1 = tensor.empty() : tensor<3xf32>
  %p1 = linalg.mul ins(%y1, %c1 : tensor<3xf32>, tensor<3xf32>) outs(%e1 : tensor<3xf32>) -> tensor<3xf32>
  %es = tensor.empty() : tensor<f32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %s0 = linalg.reduce { arith.addf } ins(%p0 : tensor<3x2xf32>) outs(%zs : tensor<f32>) dimensions = [0, 1]
  %s1 = linalg.reduce { arith.addf } ins(%p1 : tensor<3xf32>) outs(%s0 : tensor<f32>) dimensions = [0]
  return %s1 : tensor<f32>
}

func.func @loss(%a: tensor<3x4xf32>, %b: tensor<4x2xf32>, %c0: tensor<3x2xf32>, %c1: tensor<3xf32>) -> tensor<f32> {
  %y:3 = func.call @f(%a, %b) : (tensor<3x4xf32>, tensor<4x2xf32>) -> (tensor<3x2xf32>, tensor<3xf32>, tensor<3xi32>)
  %l = func.call @dot(%y#0, %y#1, %c0, %c1) : (tensor<3x2xf32>, tensor<3xf32>, tensor<3x2xf32>, tensor<3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
