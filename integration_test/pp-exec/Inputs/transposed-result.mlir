// A weight gradient as pp-autodiff writes it for a projection whose weight
// tosa-to-linalg transposes: dW^T = x^T dy by a contraction, then
// transposed into the weight's layout (integration_test/pp-exec/blas.mlir).
#id = affine_map<(i, j) -> (i, j)>
#tr = affine_map<(i, j) -> (j, i)>
#x = affine_map<(b, o, i) -> (b, i)>
#dy = affine_map<(b, o, i) -> (b, o)>
#gt = affine_map<(b, o, i) -> (i, o)>
func.func @grad(%x: tensor<4x16xf32>, %dy: tensor<4x8xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %gt = linalg.generic {indexing_maps = [#x, #dy, #gt], iterator_types = ["reduction", "parallel", "parallel"]} ins(%x, %dy : tensor<4x16xf32>, tensor<4x8xf32>) outs(%acc : tensor<16x8xf32>) {
  ^bb0(%p: f32, %q: f32, %r: f32):
    %m = arith.mulf %q, %p : f32
    %s = arith.addf %r, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  %o = tensor.empty() : tensor<8x16xf32>
  %g = linalg.generic {indexing_maps = [#id, #tr], iterator_types = ["parallel", "parallel"]} ins(%gt : tensor<16x8xf32>) outs(%o : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x16xf32>
  return %g : tensor<8x16xf32>
}
