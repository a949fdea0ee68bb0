// Gradient check of a small TOSA model (tosa.matmul, add with a
// broadcast bias, sigmoid, mul, reshape, transpose, reduce_max, sub, exp,
// reduce_sum, reciprocal, tanh) through pp-prepare-model. In f32 and f64.
// RUN: pp-opt %s --pp-prepare-model --pp-autodiff=function=tosa_mlp -o %t.tosa_mlp.mlir
// Small gradients of w1 make its f32 finite differences noisy (0.7% here,
// 2e-8 in f64): the f32 check allows 2%.
// RUN: pp-exec %t.tosa_mlp.mlir --check-gradients --entry=tosa_mlp --gradient=tosa_mlp_grad --tolerance=0.02 | FileCheck %s
// RUN: sed 's/f32/f64/g' %s | pp-opt --pp-prepare-model --pp-autodiff=function=tosa_mlp -o %t.tosa_mlp.f64.mlir
// RUN: pp-exec %t.tosa_mlp.f64.mlir --check-gradients --entry=tosa_mlp --gradient=tosa_mlp_grad | FileCheck %s

// CHECK: gradient check PASSED

func.func @tosa_mlp(%x: tensor<1x4x8xf32>, %w1: tensor<1x8x6xf32>, %b1: tensor<1x1x6xf32>, %w2: tensor<6x3xf32>) -> tensor<1xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %h = tosa.matmul %x, %w1, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x6xf32>
  %hb = tosa.add %h, %b1 : (tensor<1x4x6xf32>, tensor<1x1x6xf32>) -> tensor<1x4x6xf32>
  %s = tosa.sigmoid %hb : (tensor<1x4x6xf32>) -> tensor<1x4x6xf32>
  %g = tosa.mul %hb, %s, %shift : (tensor<1x4x6xf32>, tensor<1x4x6xf32>, tensor<1xi8>) -> tensor<1x4x6xf32>
  %shape = tosa.const_shape {values = dense<[4, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %g2 = tosa.reshape %g, %shape : (tensor<1x4x6xf32>, !tosa.shape<2>) -> tensor<4x6xf32>
  %w2t = tosa.transpose %w2 {perms = array<i32: 1, 0>} : (tensor<6x3xf32>) -> tensor<3x6xf32>
  %shape3 = tosa.const_shape {values = dense<[1, 4, 6]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %g3 = tosa.reshape %g2, %shape3 : (tensor<4x6xf32>, !tosa.shape<3>) -> tensor<1x4x6xf32>
  %shapew = tosa.const_shape {values = dense<[1, 6, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %w2r = tosa.reshape %w2, %shapew : (tensor<6x3xf32>, !tosa.shape<3>) -> tensor<1x6x3xf32>
  %o = tosa.matmul %g3, %w2r, %zp, %zp : (tensor<1x4x6xf32>, tensor<1x6x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32>
  %mx = tosa.reduce_max %o {axis = 2 : i32} : (tensor<1x4x3xf32>) -> tensor<1x4x1xf32>
  %d = tosa.sub %o, %mx : (tensor<1x4x3xf32>, tensor<1x4x1xf32>) -> tensor<1x4x3xf32>
  %e = tosa.exp %d : (tensor<1x4x3xf32>) -> tensor<1x4x3xf32>
  %se = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<1x4x3xf32>) -> tensor<1x4x1xf32>
  %r = tosa.reciprocal %se : (tensor<1x4x1xf32>) -> tensor<1x4x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<1x4x3xf32>, tensor<1x4x1xf32>, tensor<1xi8>) -> tensor<1x4x3xf32>
  %q = tosa.mul %p, %o, %shift : (tensor<1x4x3xf32>, tensor<1x4x3xf32>, tensor<1xi8>) -> tensor<1x4x3xf32>
  %t = tosa.tanh %q : (tensor<1x4x3xf32>) -> tensor<1x4x3xf32>
  %l1 = tosa.reduce_sum %t {axis = 1 : i32} : (tensor<1x4x3xf32>) -> tensor<1x1x3xf32>
  %l2 = tosa.reduce_sum %l1 {axis = 2 : i32} : (tensor<1x1x3xf32>) -> tensor<1x1x1xf32>
  %shape1 = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %l = tosa.reshape %l2, %shape1 : (tensor<1x1x1xf32>, !tosa.shape<1>) -> tensor<1xf32>
  return %l : tensor<1xf32>
}
