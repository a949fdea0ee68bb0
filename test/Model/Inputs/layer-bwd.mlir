// The backward of y = relu(x W) for one stage, written by hand: the gradient
// through the ReLU (dh) is what both B (dx = dh W^T) and W (dW = x^T dh)
// need, so it is the weight stash.
#id = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#bt = affine_map<(d0, d1, d2) -> (d1, d2)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
#at = affine_map<(d0, d1, d2) -> (d2, d0)>
func.func @layer_bwd(%x: tensor<2x8xf32>, %w: tensor<8x16xf32> {pp.parameter},
                     %h: tensor<2x16xf32>, %dy: tensor<2x16xf32>)
    -> (tensor<2x8xf32>, tensor<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16xf32>
  // dh = dy * (h > 0)
  %dh = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %h : tensor<2x16xf32>, tensor<2x16xf32>) outs(%e : tensor<2x16xf32>) {
  ^bb0(%g: f32, %v: f32, %o: f32):
    %pos = arith.cmpf ogt, %v, %zero : f32
    %r = arith.select %pos, %g, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x16xf32>
  // dx[i, k] = sum_j dh[i, j] * w[k, j]
  %ex = tensor.empty() : tensor<2x8xf32>
  %zx = linalg.fill ins(%zero : f32) outs(%ex : tensor<2x8xf32>) -> tensor<2x8xf32>
  %dx = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%dh, %w : tensor<2x16xf32>, tensor<8x16xf32>) outs(%zx : tensor<2x8xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x8xf32>
  // dw[k, j] = sum_i x[i, k] * dh[i, j]
  %ew = tensor.empty() : tensor<8x16xf32>
  %zw = linalg.fill ins(%zero : f32) outs(%ew : tensor<8x16xf32>) -> tensor<8x16xf32>
  %dw = linalg.generic {indexing_maps = [#at, affine_map<(d0, d1, d2) -> (d2, d1)>, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %dh : tensor<2x8xf32>, tensor<2x16xf32>) outs(%zw : tensor<8x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %dx, %dw : tensor<2x8xf32>, tensor<8x16xf32>
}
