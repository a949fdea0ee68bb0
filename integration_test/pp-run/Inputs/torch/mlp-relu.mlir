// Exported from PyTorch by python/pp-import-torch (docs/Frontends.md):
//   pp-import-torch integration_test/pp-run/Inputs/torch/models.py:mlp_relu --input 4x32 --target 4x10 --output-type linalg-on-tensors --weights-dir none -o integration_test/pp-run/Inputs/torch/mlp-relu.mlir
// torch 2.15.0, torch-mlir 20261001, output type linalg-on-tensors.
// Arguments: 6 parameters (pp.parameter, pp.name = the PyTorch name), then 1 data (pp.data).
//   0: 0.weight 64x32
//   1: 0.bias 64
//   2: 2.weight 64x64
//   3: 2.bias 64
//   4: 4.weight 10x64
//   5: 4.bias 10
#map = affine_map<(d0, d1) -> (d1)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @mlp_relu(%arg0: tensor<64x32xf32> {pp.name = "0.weight", pp.parameter}, %arg1: tensor<64xf32> {pp.name = "0.bias", pp.parameter}, %arg2: tensor<64x64xf32> {pp.name = "2.weight", pp.parameter}, %arg3: tensor<64xf32> {pp.name = "2.bias", pp.parameter}, %arg4: tensor<10x64xf32> {pp.name = "4.weight", pp.parameter}, %arg5: tensor<10xf32> {pp.name = "4.bias", pp.parameter}, %arg6: tensor<4x32xf32> {pp.data}) -> tensor<4x10xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<32x64xf32>
    %transposed = linalg.transpose ins(%arg0 : tensor<64x32xf32>) outs(%0 : tensor<32x64xf32>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<4x64xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<4x64xf32>) -> tensor<4x64xf32>
    %3 = linalg.matmul ins(%arg6, %transposed : tensor<4x32xf32>, tensor<32x64xf32>) outs(%2 : tensor<4x64xf32>) -> tensor<4x64xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<64xf32>) outs(%1 : tensor<4x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<4x64xf32>
    %5 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%3, %4 : tensor<4x64xf32>, tensor<4x64xf32>) outs(%1 : tensor<4x64xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %18 = arith.addf %in, %in_2 : f32
      linalg.yield %18 : f32
    } -> tensor<4x64xf32>
    %6 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<4x64xf32>) outs(%1 : tensor<4x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %18 = arith.cmpf ugt, %in, %cst : f32
      %19 = arith.select %18, %in, %cst : f32
      linalg.yield %19 : f32
    } -> tensor<4x64xf32>
    %7 = tensor.empty() : tensor<64x64xf32>
    %transposed_0 = linalg.transpose ins(%arg2 : tensor<64x64xf32>) outs(%7 : tensor<64x64xf32>) permutation = [1, 0] 
    %8 = linalg.matmul ins(%6, %transposed_0 : tensor<4x64xf32>, tensor<64x64xf32>) outs(%2 : tensor<4x64xf32>) -> tensor<4x64xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg3 : tensor<64xf32>) outs(%1 : tensor<4x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<4x64xf32>
    %10 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%8, %9 : tensor<4x64xf32>, tensor<4x64xf32>) outs(%1 : tensor<4x64xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %18 = arith.addf %in, %in_2 : f32
      linalg.yield %18 : f32
    } -> tensor<4x64xf32>
    %11 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%10 : tensor<4x64xf32>) outs(%1 : tensor<4x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %18 = arith.cmpf ugt, %in, %cst : f32
      %19 = arith.select %18, %in, %cst : f32
      linalg.yield %19 : f32
    } -> tensor<4x64xf32>
    %12 = tensor.empty() : tensor<64x10xf32>
    %transposed_1 = linalg.transpose ins(%arg4 : tensor<10x64xf32>) outs(%12 : tensor<64x10xf32>) permutation = [1, 0] 
    %13 = tensor.empty() : tensor<4x10xf32>
    %14 = linalg.fill ins(%cst : f32) outs(%13 : tensor<4x10xf32>) -> tensor<4x10xf32>
    %15 = linalg.matmul ins(%11, %transposed_1 : tensor<4x64xf32>, tensor<64x10xf32>) outs(%14 : tensor<4x10xf32>) -> tensor<4x10xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg5 : tensor<10xf32>) outs(%13 : tensor<4x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<4x10xf32>
    %17 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%15, %16 : tensor<4x10xf32>, tensor<4x10xf32>) outs(%13 : tensor<4x10xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %18 = arith.addf %in, %in_2 : f32
      linalg.yield %18 : f32
    } -> tensor<4x10xf32>
    return %17 : tensor<4x10xf32>
  }
}
