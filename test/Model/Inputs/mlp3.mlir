// A three-layer MLP written for the pp-partition tests: x[2x8] -> 16 -> 16 -> 4,
// ReLU between layers.
// (matmul bodies have a mul and an add, so 2*2*16*8 = 512 FLOP for the
// first layer), ReLU 32 each; fills are recomputed where used.
#relu = affine_map<(d0, d1) -> (d0, d1)>
func.func @mlp(%w0: tensor<8x16xf32> {pp.parameter}, %w1: tensor<16x16xf32> {pp.parameter},
               %w2: tensor<16x4xf32> {pp.parameter}, %x: tensor<2x8xf32>) -> tensor<2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x16xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x16xf32>) -> tensor<2x16xf32>
  %h0 = linalg.matmul ins(%x, %w0 : tensor<2x8xf32>, tensor<8x16xf32>) outs(%f0 : tensor<2x16xf32>) -> tensor<2x16xf32>
  %a0 = linalg.generic {indexing_maps = [#relu, #relu], iterator_types = ["parallel", "parallel"]}
      ins(%h0 : tensor<2x16xf32>) outs(%e0 : tensor<2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x16xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x16xf32>) -> tensor<2x16xf32>
  %h1 = linalg.matmul ins(%a0, %w1 : tensor<2x16xf32>, tensor<16x16xf32>) outs(%f1 : tensor<2x16xf32>) -> tensor<2x16xf32>
  %a1 = linalg.generic {indexing_maps = [#relu, #relu], iterator_types = ["parallel", "parallel"]}
      ins(%h1 : tensor<2x16xf32>) outs(%e0 : tensor<2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x16xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %y = linalg.matmul ins(%a1, %w2 : tensor<2x16xf32>, tensor<16x4xf32>) outs(%f2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
