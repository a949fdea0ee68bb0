// For pp-autodiff-cotangents.mlir: the loss sum(y0 * c0) + sum(y1 * c1)
// and its gradient from @f_grad (made by the pass) seeded with (c0, c1).
func.func @via_vjp(%a: tensor<3x4xf32>, %b: tensor<4x2xf32>, %c0: tensor<3x2xf32>, %c1: tensor<3xf32>) -> (tensor<f32>, tensor<3x4xf32>, tensor<4x2xf32>) {
  %r:5 = func.call @f_grad(%a, %b, %c0, %c1) : (tensor<3x4xf32>, tensor<4x2xf32>, tensor<3x2xf32>, tensor<3xf32>) -> (tensor<3x2xf32>, tensor<3xf32>, tensor<3xi32>, tensor<3x4xf32>, tensor<4x2xf32>)
  %l = func.call @dot(%r#0, %r#1, %c0, %c1) : (tensor<3x2xf32>, tensor<3xf32>, tensor<3x2xf32>, tensor<3xf32>) -> tensor<f32>
  return %l, %r#3, %r#4 : tensor<f32>, tensor<3x4xf32>, tensor<4x2xf32>
}
