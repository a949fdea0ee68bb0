// A one-layer net whose weight is a constant (as exported inference models
// have them), with an MSE loss: pp-run lifts the weight into a parameter and
// starts training from its value (@net_init), not from random numbers.
func.func @net(%x: tensor<2x4xf32>, %t: tensor<2x3xf32>) -> tensor<f32> {
  %w = arith.constant dense<[[0.5, -1.0, 0.25], [1.5, 0.5, -0.5], [-0.25, 1.0, 2.0], [0.75, -1.5, 1.0]]> : tensor<4x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %y = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x3xf32>) outs(%z : tensor<2x3xf32>) -> tensor<2x3xf32>
  %h = linalg.map { math.tanh } ins(%y : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>)
  %d = linalg.sub ins(%h, %t : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %sq = linalg.mul ins(%d, %d : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%sq : tensor<2x3xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1]
  return %l : tensor<f32>
}
