// A 512x784 by 784x512 matmul (2 * 512 * 784 * 512 = 411 MFLOP): the
// register-tiled, vectorized kernel alone.
func.func @matmul(%a: tensor<512x784xf32>, %b: tensor<784x512xf32>) -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<512x784xf32>, tensor<784x512xf32>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}
