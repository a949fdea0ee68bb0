// Exported from PyTorch by python/pp-import-torch (docs/Frontends.md):
//   pp-import-torch examples/models/resnet.py:resnet_small --input 2x1x28x28 --target 2:i32 --train-mode --output-type linalg-on-tensors --weights-dir none -o examples/resnet-small.mlir
// torch 2.15.0, torch-mlir 20261001, output type linalg-on-tensors.
// Arguments: 47 parameters (pp.parameter, pp.name = the PyTorch name), then 1 data (pp.data).
//   0: stem.0.weight 16x1x3x3
//   1: stem.1.weight 16
//   2: stem.1.bias 16
//   3: blocks.0.conv1.weight 16x16x3x3
//   4: blocks.0.bn1.weight 16
//   5: blocks.0.bn1.bias 16
//   6: blocks.0.conv2.weight 16x16x3x3
//   7: blocks.0.bn2.weight 16
//   8: blocks.0.bn2.bias 16
//   9: blocks.1.conv1.weight 16x16x3x3
//   10: blocks.1.bn1.weight 16
//   11: blocks.1.bn1.bias 16
//   12: blocks.1.conv2.weight 16x16x3x3
//   13: blocks.1.bn2.weight 16
//   14: blocks.1.bn2.bias 16
//   15: blocks.2.conv1.weight 32x16x3x3
//   16: blocks.2.bn1.weight 32
//   17: blocks.2.bn1.bias 32
//   18: blocks.2.conv2.weight 32x32x3x3
//   19: blocks.2.bn2.weight 32
//   20: blocks.2.bn2.bias 32
//   21: blocks.2.project.0.weight 32x16x1x1
//   22: blocks.2.project.1.weight 32
//   23: blocks.2.project.1.bias 32
//   24: blocks.3.conv1.weight 32x32x3x3
//   25: blocks.3.bn1.weight 32
//   26: blocks.3.bn1.bias 32
//   27: blocks.3.conv2.weight 32x32x3x3
//   28: blocks.3.bn2.weight 32
//   29: blocks.3.bn2.bias 32
//   30: blocks.4.conv1.weight 64x32x3x3
//   31: blocks.4.bn1.weight 64
//   32: blocks.4.bn1.bias 64
//   33: blocks.4.conv2.weight 64x64x3x3
//   34: blocks.4.bn2.weight 64
//   35: blocks.4.bn2.bias 64
//   36: blocks.4.project.0.weight 64x32x1x1
//   37: blocks.4.project.1.weight 64
//   38: blocks.4.project.1.bias 64
//   39: blocks.5.conv1.weight 64x64x3x3
//   40: blocks.5.bn1.weight 64
//   41: blocks.5.bn1.bias 64
//   42: blocks.5.conv2.weight 64x64x3x3
//   43: blocks.5.bn2.weight 64
//   44: blocks.5.bn2.bias 64
//   45: fc.weight 10x64
//   46: fc.bias 10
// Then the body (this header kept) through mlir-opt, which generalizes the
// named convolutions (and other named ops): mlir-opt --linalg-generalize-named-ops
#map = affine_map<(d0, d1, d2, d3) -> ()>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5, d3 + d6)>
#map3 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
#map4 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
#map5 = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
#map7 = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 * 2 + d5, d3 * 2 + d6)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#map9 = affine_map<(d0, d1) -> (d1, d0)>
#map10 = affine_map<(d0, d1) -> (d0, d1)>
#map11 = affine_map<(d0, d1) -> ()>
#map12 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map13 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map14 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map15 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @resnet_small(%arg0: tensor<16x1x3x3xf32> {pp.name = "stem.0.weight", pp.parameter}, %arg1: tensor<16xf32> {pp.name = "stem.1.weight", pp.parameter}, %arg2: tensor<16xf32> {pp.name = "stem.1.bias", pp.parameter}, %arg3: tensor<16x16x3x3xf32> {pp.name = "blocks.0.conv1.weight", pp.parameter}, %arg4: tensor<16xf32> {pp.name = "blocks.0.bn1.weight", pp.parameter}, %arg5: tensor<16xf32> {pp.name = "blocks.0.bn1.bias", pp.parameter}, %arg6: tensor<16x16x3x3xf32> {pp.name = "blocks.0.conv2.weight", pp.parameter}, %arg7: tensor<16xf32> {pp.name = "blocks.0.bn2.weight", pp.parameter}, %arg8: tensor<16xf32> {pp.name = "blocks.0.bn2.bias", pp.parameter}, %arg9: tensor<16x16x3x3xf32> {pp.name = "blocks.1.conv1.weight", pp.parameter}, %arg10: tensor<16xf32> {pp.name = "blocks.1.bn1.weight", pp.parameter}, %arg11: tensor<16xf32> {pp.name = "blocks.1.bn1.bias", pp.parameter}, %arg12: tensor<16x16x3x3xf32> {pp.name = "blocks.1.conv2.weight", pp.parameter}, %arg13: tensor<16xf32> {pp.name = "blocks.1.bn2.weight", pp.parameter}, %arg14: tensor<16xf32> {pp.name = "blocks.1.bn2.bias", pp.parameter}, %arg15: tensor<32x16x3x3xf32> {pp.name = "blocks.2.conv1.weight", pp.parameter}, %arg16: tensor<32xf32> {pp.name = "blocks.2.bn1.weight", pp.parameter}, %arg17: tensor<32xf32> {pp.name = "blocks.2.bn1.bias", pp.parameter}, %arg18: tensor<32x32x3x3xf32> {pp.name = "blocks.2.conv2.weight", pp.parameter}, %arg19: tensor<32xf32> {pp.name = "blocks.2.bn2.weight", pp.parameter}, %arg20: tensor<32xf32> {pp.name = "blocks.2.bn2.bias", pp.parameter}, %arg21: tensor<32x16x1x1xf32> {pp.name = "blocks.2.project.0.weight", pp.parameter}, %arg22: tensor<32xf32> {pp.name = "blocks.2.project.1.weight", pp.parameter}, %arg23: tensor<32xf32> {pp.name = "blocks.2.project.1.bias", pp.parameter}, %arg24: tensor<32x32x3x3xf32> {pp.name = "blocks.3.conv1.weight", pp.parameter}, %arg25: tensor<32xf32> {pp.name = "blocks.3.bn1.weight", pp.parameter}, %arg26: tensor<32xf32> {pp.name = "blocks.3.bn1.bias", pp.parameter}, %arg27: tensor<32x32x3x3xf32> {pp.name = "blocks.3.conv2.weight", pp.parameter}, %arg28: tensor<32xf32> {pp.name = "blocks.3.bn2.weight", pp.parameter}, %arg29: tensor<32xf32> {pp.name = "blocks.3.bn2.bias", pp.parameter}, %arg30: tensor<64x32x3x3xf32> {pp.name = "blocks.4.conv1.weight", pp.parameter}, %arg31: tensor<64xf32> {pp.name = "blocks.4.bn1.weight", pp.parameter}, %arg32: tensor<64xf32> {pp.name = "blocks.4.bn1.bias", pp.parameter}, %arg33: tensor<64x64x3x3xf32> {pp.name = "blocks.4.conv2.weight", pp.parameter}, %arg34: tensor<64xf32> {pp.name = "blocks.4.bn2.weight", pp.parameter}, %arg35: tensor<64xf32> {pp.name = "blocks.4.bn2.bias", pp.parameter}, %arg36: tensor<64x32x1x1xf32> {pp.name = "blocks.4.project.0.weight", pp.parameter}, %arg37: tensor<64xf32> {pp.name = "blocks.4.project.1.weight", pp.parameter}, %arg38: tensor<64xf32> {pp.name = "blocks.4.project.1.bias", pp.parameter}, %arg39: tensor<64x64x3x3xf32> {pp.name = "blocks.5.conv1.weight", pp.parameter}, %arg40: tensor<64xf32> {pp.name = "blocks.5.bn1.weight", pp.parameter}, %arg41: tensor<64xf32> {pp.name = "blocks.5.bn1.bias", pp.parameter}, %arg42: tensor<64x64x3x3xf32> {pp.name = "blocks.5.conv2.weight", pp.parameter}, %arg43: tensor<64xf32> {pp.name = "blocks.5.bn2.weight", pp.parameter}, %arg44: tensor<64xf32> {pp.name = "blocks.5.bn2.bias", pp.parameter}, %arg45: tensor<10x64xf32> {pp.name = "fc.weight", pp.parameter}, %arg46: tensor<10xf32> {pp.name = "fc.bias", pp.parameter}, %arg47: tensor<2x1x28x28xf32> {pp.data}) -> tensor<2x10xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0.000000e+00 : f64
    %cst_1 = arith.constant 1.000000e-05 : f64
    %cst_2 = arith.constant 1.568000e+03 : f64
    %cst_3 = arith.constant 1.568000e+03 : f32
    %cst_4 = arith.constant 3.920000e+02 : f64
    %cst_5 = arith.constant 3.920000e+02 : f32
    %cst_6 = arith.constant 9.800000e+01 : f64
    %cst_7 = arith.constant 9.800000e+01 : f32
    %cst_8 = arith.constant 4.900000e+01 : f32
    %padded = tensor.pad %arg47 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg48: index, %arg49: index, %arg50: index, %arg51: index):
      tensor.yield %cst : f32
    } : tensor<2x1x28x28xf32> to tensor<2x1x30x30xf32>
    %0 = tensor.empty() : tensor<2x16x28x28xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x16x28x28xf32>
    %2 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%padded, %arg0 : tensor<2x1x30x30xf32>, tensor<16x1x3x3xf32>) outs(%1 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      %307 = arith.addf %out, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<2x16x28x28xf32>
    %3 = tensor.empty() : tensor<2x16x28x28xf64>
    %4 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2 : tensor<2x16x28x28xf32>) outs(%3 : tensor<2x16x28x28xf64>) {
    ^bb0(%in: f32, %out: f64):
      %306 = arith.extf %in : f32 to f64
      linalg.yield %306 : f64
    } -> tensor<2x16x28x28xf64>
    %5 = tensor.empty() : tensor<1x16x1x1xf64>
    %6 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_0 : f64) outs(%5 : tensor<1x16x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      linalg.yield %in : f64
    } -> tensor<1x16x1x1xf64>
    %7 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%4 : tensor<2x16x28x28xf64>) outs(%6 : tensor<1x16x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x16x1x1xf64>
    %8 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7 : tensor<1x16x1x1xf64>) outs(%5 : tensor<1x16x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_2 : f64
      linalg.yield %306 : f64
    } -> tensor<1x16x1x1xf64>
    %9 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4, %8 : tensor<2x16x28x28xf64>, tensor<1x16x1x1xf64>) outs(%3 : tensor<2x16x28x28xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.subf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x16x28x28xf64>
    %10 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%9, %9 : tensor<2x16x28x28xf64>, tensor<2x16x28x28xf64>) outs(%3 : tensor<2x16x28x28xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.mulf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x16x28x28xf64>
    %11 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%10 : tensor<2x16x28x28xf64>) outs(%6 : tensor<1x16x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x16x1x1xf64>
    %12 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11 : tensor<1x16x1x1xf64>) outs(%5 : tensor<1x16x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_2 : f64
      linalg.yield %306 : f64
    } -> tensor<1x16x1x1xf64>
    %13 = tensor.empty() : tensor<1x16x1x1xf32>
    %14 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12 : tensor<1x16x1x1xf64>) outs(%13 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %306 = arith.truncf %in : f64 to f32
      linalg.yield %306 : f32
    } -> tensor<1x16x1x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%13 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x16x1x1xf32>
    %16 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%2 : tensor<2x16x28x28xf32>) outs(%15 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.addf %in, %out : f32
      linalg.yield %306 : f32
    } -> tensor<1x16x1x1xf32>
    %17 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%16 : tensor<1x16x1x1xf32>) outs(%13 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.divf %in, %cst_3 : f32
      linalg.yield %306 : f32
    } -> tensor<1x16x1x1xf32>
    %18 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14 : tensor<1x16x1x1xf32>) outs(%13 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.truncf %cst_1 : f64 to f32
      %307 = arith.addf %in, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<1x16x1x1xf32>
    %19 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18 : tensor<1x16x1x1xf32>) outs(%13 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = math.rsqrt %in : f32
      linalg.yield %306 : f32
    } -> tensor<1x16x1x1xf32>
    %20 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2, %17 : tensor<2x16x28x28xf32>, tensor<1x16x1x1xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.subf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x16x28x28xf32>
    %21 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20, %19 : tensor<2x16x28x28xf32>, tensor<1x16x1x1xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x16x28x28xf32>
    %expanded = tensor.expand_shape %arg1 [[0, 1, 2]] output_shape [16, 1, 1] : tensor<16xf32> into tensor<16x1x1xf32>
    %22 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21, %expanded : tensor<2x16x28x28xf32>, tensor<16x1x1xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x16x28x28xf32>
    %expanded_9 = tensor.expand_shape %arg2 [[0, 1, 2]] output_shape [16, 1, 1] : tensor<16xf32> into tensor<16x1x1xf32>
    %23 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%22, %expanded_9 : tensor<2x16x28x28xf32>, tensor<16x1x1xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.addf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x16x28x28xf32>
    %24 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23 : tensor<2x16x28x28xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.cmpf ugt, %in, %cst : f32
      %307 = arith.select %306, %in, %cst : f32
      linalg.yield %307 : f32
    } -> tensor<2x16x28x28xf32>
    %padded_10 = tensor.pad %24 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg48: index, %arg49: index, %arg50: index, %arg51: index):
      tensor.yield %cst : f32
    } : tensor<2x16x28x28xf32> to tensor<2x16x30x30xf32>
    %25 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%padded_10, %arg3 : tensor<2x16x30x30xf32>, tensor<16x16x3x3xf32>) outs(%1 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      %307 = arith.addf %out, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<2x16x28x28xf32>
    %26 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%25 : tensor<2x16x28x28xf32>) outs(%3 : tensor<2x16x28x28xf64>) {
    ^bb0(%in: f32, %out: f64):
      %306 = arith.extf %in : f32 to f64
      linalg.yield %306 : f64
    } -> tensor<2x16x28x28xf64>
    %27 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%26 : tensor<2x16x28x28xf64>) outs(%6 : tensor<1x16x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x16x1x1xf64>
    %28 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%27 : tensor<1x16x1x1xf64>) outs(%5 : tensor<1x16x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_2 : f64
      linalg.yield %306 : f64
    } -> tensor<1x16x1x1xf64>
    %29 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26, %28 : tensor<2x16x28x28xf64>, tensor<1x16x1x1xf64>) outs(%3 : tensor<2x16x28x28xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.subf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x16x28x28xf64>
    %30 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%29, %29 : tensor<2x16x28x28xf64>, tensor<2x16x28x28xf64>) outs(%3 : tensor<2x16x28x28xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.mulf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x16x28x28xf64>
    %31 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%30 : tensor<2x16x28x28xf64>) outs(%6 : tensor<1x16x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x16x1x1xf64>
    %32 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%31 : tensor<1x16x1x1xf64>) outs(%5 : tensor<1x16x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_2 : f64
      linalg.yield %306 : f64
    } -> tensor<1x16x1x1xf64>
    %33 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%32 : tensor<1x16x1x1xf64>) outs(%13 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %306 = arith.truncf %in : f64 to f32
      linalg.yield %306 : f32
    } -> tensor<1x16x1x1xf32>
    %34 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%25 : tensor<2x16x28x28xf32>) outs(%15 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.addf %in, %out : f32
      linalg.yield %306 : f32
    } -> tensor<1x16x1x1xf32>
    %35 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%34 : tensor<1x16x1x1xf32>) outs(%13 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.divf %in, %cst_3 : f32
      linalg.yield %306 : f32
    } -> tensor<1x16x1x1xf32>
    %36 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%33 : tensor<1x16x1x1xf32>) outs(%13 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.truncf %cst_1 : f64 to f32
      %307 = arith.addf %in, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<1x16x1x1xf32>
    %37 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%36 : tensor<1x16x1x1xf32>) outs(%13 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = math.rsqrt %in : f32
      linalg.yield %306 : f32
    } -> tensor<1x16x1x1xf32>
    %38 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%25, %35 : tensor<2x16x28x28xf32>, tensor<1x16x1x1xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.subf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x16x28x28xf32>
    %39 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%38, %37 : tensor<2x16x28x28xf32>, tensor<1x16x1x1xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x16x28x28xf32>
    %expanded_11 = tensor.expand_shape %arg4 [[0, 1, 2]] output_shape [16, 1, 1] : tensor<16xf32> into tensor<16x1x1xf32>
    %40 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%39, %expanded_11 : tensor<2x16x28x28xf32>, tensor<16x1x1xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x16x28x28xf32>
    %expanded_12 = tensor.expand_shape %arg5 [[0, 1, 2]] output_shape [16, 1, 1] : tensor<16xf32> into tensor<16x1x1xf32>
    %41 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%40, %expanded_12 : tensor<2x16x28x28xf32>, tensor<16x1x1xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.addf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x16x28x28xf32>
    %42 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%41 : tensor<2x16x28x28xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.cmpf ugt, %in, %cst : f32
      %307 = arith.select %306, %in, %cst : f32
      linalg.yield %307 : f32
    } -> tensor<2x16x28x28xf32>
    %padded_13 = tensor.pad %42 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg48: index, %arg49: index, %arg50: index, %arg51: index):
      tensor.yield %cst : f32
    } : tensor<2x16x28x28xf32> to tensor<2x16x30x30xf32>
    %43 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%padded_13, %arg6 : tensor<2x16x30x30xf32>, tensor<16x16x3x3xf32>) outs(%1 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      %307 = arith.addf %out, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<2x16x28x28xf32>
    %44 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%43 : tensor<2x16x28x28xf32>) outs(%3 : tensor<2x16x28x28xf64>) {
    ^bb0(%in: f32, %out: f64):
      %306 = arith.extf %in : f32 to f64
      linalg.yield %306 : f64
    } -> tensor<2x16x28x28xf64>
    %45 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%44 : tensor<2x16x28x28xf64>) outs(%6 : tensor<1x16x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x16x1x1xf64>
    %46 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%45 : tensor<1x16x1x1xf64>) outs(%5 : tensor<1x16x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_2 : f64
      linalg.yield %306 : f64
    } -> tensor<1x16x1x1xf64>
    %47 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%44, %46 : tensor<2x16x28x28xf64>, tensor<1x16x1x1xf64>) outs(%3 : tensor<2x16x28x28xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.subf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x16x28x28xf64>
    %48 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%47, %47 : tensor<2x16x28x28xf64>, tensor<2x16x28x28xf64>) outs(%3 : tensor<2x16x28x28xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.mulf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x16x28x28xf64>
    %49 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%48 : tensor<2x16x28x28xf64>) outs(%6 : tensor<1x16x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x16x1x1xf64>
    %50 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%49 : tensor<1x16x1x1xf64>) outs(%5 : tensor<1x16x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_2 : f64
      linalg.yield %306 : f64
    } -> tensor<1x16x1x1xf64>
    %51 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%50 : tensor<1x16x1x1xf64>) outs(%13 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %306 = arith.truncf %in : f64 to f32
      linalg.yield %306 : f32
    } -> tensor<1x16x1x1xf32>
    %52 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%43 : tensor<2x16x28x28xf32>) outs(%15 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.addf %in, %out : f32
      linalg.yield %306 : f32
    } -> tensor<1x16x1x1xf32>
    %53 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%52 : tensor<1x16x1x1xf32>) outs(%13 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.divf %in, %cst_3 : f32
      linalg.yield %306 : f32
    } -> tensor<1x16x1x1xf32>
    %54 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%51 : tensor<1x16x1x1xf32>) outs(%13 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.truncf %cst_1 : f64 to f32
      %307 = arith.addf %in, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<1x16x1x1xf32>
    %55 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%54 : tensor<1x16x1x1xf32>) outs(%13 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = math.rsqrt %in : f32
      linalg.yield %306 : f32
    } -> tensor<1x16x1x1xf32>
    %56 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%43, %53 : tensor<2x16x28x28xf32>, tensor<1x16x1x1xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.subf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x16x28x28xf32>
    %57 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%56, %55 : tensor<2x16x28x28xf32>, tensor<1x16x1x1xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x16x28x28xf32>
    %expanded_14 = tensor.expand_shape %arg7 [[0, 1, 2]] output_shape [16, 1, 1] : tensor<16xf32> into tensor<16x1x1xf32>
    %58 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%57, %expanded_14 : tensor<2x16x28x28xf32>, tensor<16x1x1xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x16x28x28xf32>
    %expanded_15 = tensor.expand_shape %arg8 [[0, 1, 2]] output_shape [16, 1, 1] : tensor<16xf32> into tensor<16x1x1xf32>
    %59 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%58, %expanded_15 : tensor<2x16x28x28xf32>, tensor<16x1x1xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.addf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x16x28x28xf32>
    %60 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%59, %24 : tensor<2x16x28x28xf32>, tensor<2x16x28x28xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.addf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x16x28x28xf32>
    %61 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%60 : tensor<2x16x28x28xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.cmpf ugt, %in, %cst : f32
      %307 = arith.select %306, %in, %cst : f32
      linalg.yield %307 : f32
    } -> tensor<2x16x28x28xf32>
    %padded_16 = tensor.pad %61 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg48: index, %arg49: index, %arg50: index, %arg51: index):
      tensor.yield %cst : f32
    } : tensor<2x16x28x28xf32> to tensor<2x16x30x30xf32>
    %62 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%padded_16, %arg9 : tensor<2x16x30x30xf32>, tensor<16x16x3x3xf32>) outs(%1 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      %307 = arith.addf %out, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<2x16x28x28xf32>
    %63 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%62 : tensor<2x16x28x28xf32>) outs(%3 : tensor<2x16x28x28xf64>) {
    ^bb0(%in: f32, %out: f64):
      %306 = arith.extf %in : f32 to f64
      linalg.yield %306 : f64
    } -> tensor<2x16x28x28xf64>
    %64 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%63 : tensor<2x16x28x28xf64>) outs(%6 : tensor<1x16x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x16x1x1xf64>
    %65 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%64 : tensor<1x16x1x1xf64>) outs(%5 : tensor<1x16x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_2 : f64
      linalg.yield %306 : f64
    } -> tensor<1x16x1x1xf64>
    %66 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%63, %65 : tensor<2x16x28x28xf64>, tensor<1x16x1x1xf64>) outs(%3 : tensor<2x16x28x28xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.subf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x16x28x28xf64>
    %67 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%66, %66 : tensor<2x16x28x28xf64>, tensor<2x16x28x28xf64>) outs(%3 : tensor<2x16x28x28xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.mulf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x16x28x28xf64>
    %68 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%67 : tensor<2x16x28x28xf64>) outs(%6 : tensor<1x16x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x16x1x1xf64>
    %69 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%68 : tensor<1x16x1x1xf64>) outs(%5 : tensor<1x16x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_2 : f64
      linalg.yield %306 : f64
    } -> tensor<1x16x1x1xf64>
    %70 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%69 : tensor<1x16x1x1xf64>) outs(%13 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %306 = arith.truncf %in : f64 to f32
      linalg.yield %306 : f32
    } -> tensor<1x16x1x1xf32>
    %71 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%62 : tensor<2x16x28x28xf32>) outs(%15 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.addf %in, %out : f32
      linalg.yield %306 : f32
    } -> tensor<1x16x1x1xf32>
    %72 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%71 : tensor<1x16x1x1xf32>) outs(%13 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.divf %in, %cst_3 : f32
      linalg.yield %306 : f32
    } -> tensor<1x16x1x1xf32>
    %73 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%70 : tensor<1x16x1x1xf32>) outs(%13 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.truncf %cst_1 : f64 to f32
      %307 = arith.addf %in, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<1x16x1x1xf32>
    %74 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%73 : tensor<1x16x1x1xf32>) outs(%13 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = math.rsqrt %in : f32
      linalg.yield %306 : f32
    } -> tensor<1x16x1x1xf32>
    %75 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%62, %72 : tensor<2x16x28x28xf32>, tensor<1x16x1x1xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.subf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x16x28x28xf32>
    %76 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%75, %74 : tensor<2x16x28x28xf32>, tensor<1x16x1x1xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x16x28x28xf32>
    %expanded_17 = tensor.expand_shape %arg10 [[0, 1, 2]] output_shape [16, 1, 1] : tensor<16xf32> into tensor<16x1x1xf32>
    %77 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%76, %expanded_17 : tensor<2x16x28x28xf32>, tensor<16x1x1xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x16x28x28xf32>
    %expanded_18 = tensor.expand_shape %arg11 [[0, 1, 2]] output_shape [16, 1, 1] : tensor<16xf32> into tensor<16x1x1xf32>
    %78 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%77, %expanded_18 : tensor<2x16x28x28xf32>, tensor<16x1x1xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.addf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x16x28x28xf32>
    %79 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%78 : tensor<2x16x28x28xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.cmpf ugt, %in, %cst : f32
      %307 = arith.select %306, %in, %cst : f32
      linalg.yield %307 : f32
    } -> tensor<2x16x28x28xf32>
    %padded_19 = tensor.pad %79 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg48: index, %arg49: index, %arg50: index, %arg51: index):
      tensor.yield %cst : f32
    } : tensor<2x16x28x28xf32> to tensor<2x16x30x30xf32>
    %80 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%padded_19, %arg12 : tensor<2x16x30x30xf32>, tensor<16x16x3x3xf32>) outs(%1 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      %307 = arith.addf %out, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<2x16x28x28xf32>
    %81 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%80 : tensor<2x16x28x28xf32>) outs(%3 : tensor<2x16x28x28xf64>) {
    ^bb0(%in: f32, %out: f64):
      %306 = arith.extf %in : f32 to f64
      linalg.yield %306 : f64
    } -> tensor<2x16x28x28xf64>
    %82 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%81 : tensor<2x16x28x28xf64>) outs(%6 : tensor<1x16x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x16x1x1xf64>
    %83 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%82 : tensor<1x16x1x1xf64>) outs(%5 : tensor<1x16x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_2 : f64
      linalg.yield %306 : f64
    } -> tensor<1x16x1x1xf64>
    %84 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%81, %83 : tensor<2x16x28x28xf64>, tensor<1x16x1x1xf64>) outs(%3 : tensor<2x16x28x28xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.subf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x16x28x28xf64>
    %85 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%84, %84 : tensor<2x16x28x28xf64>, tensor<2x16x28x28xf64>) outs(%3 : tensor<2x16x28x28xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.mulf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x16x28x28xf64>
    %86 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%85 : tensor<2x16x28x28xf64>) outs(%6 : tensor<1x16x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x16x1x1xf64>
    %87 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%86 : tensor<1x16x1x1xf64>) outs(%5 : tensor<1x16x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_2 : f64
      linalg.yield %306 : f64
    } -> tensor<1x16x1x1xf64>
    %88 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%87 : tensor<1x16x1x1xf64>) outs(%13 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %306 = arith.truncf %in : f64 to f32
      linalg.yield %306 : f32
    } -> tensor<1x16x1x1xf32>
    %89 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%80 : tensor<2x16x28x28xf32>) outs(%15 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.addf %in, %out : f32
      linalg.yield %306 : f32
    } -> tensor<1x16x1x1xf32>
    %90 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%89 : tensor<1x16x1x1xf32>) outs(%13 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.divf %in, %cst_3 : f32
      linalg.yield %306 : f32
    } -> tensor<1x16x1x1xf32>
    %91 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%88 : tensor<1x16x1x1xf32>) outs(%13 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.truncf %cst_1 : f64 to f32
      %307 = arith.addf %in, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<1x16x1x1xf32>
    %92 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%91 : tensor<1x16x1x1xf32>) outs(%13 : tensor<1x16x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = math.rsqrt %in : f32
      linalg.yield %306 : f32
    } -> tensor<1x16x1x1xf32>
    %93 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%80, %90 : tensor<2x16x28x28xf32>, tensor<1x16x1x1xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.subf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x16x28x28xf32>
    %94 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%93, %92 : tensor<2x16x28x28xf32>, tensor<1x16x1x1xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x16x28x28xf32>
    %expanded_20 = tensor.expand_shape %arg13 [[0, 1, 2]] output_shape [16, 1, 1] : tensor<16xf32> into tensor<16x1x1xf32>
    %95 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%94, %expanded_20 : tensor<2x16x28x28xf32>, tensor<16x1x1xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x16x28x28xf32>
    %expanded_21 = tensor.expand_shape %arg14 [[0, 1, 2]] output_shape [16, 1, 1] : tensor<16xf32> into tensor<16x1x1xf32>
    %96 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%95, %expanded_21 : tensor<2x16x28x28xf32>, tensor<16x1x1xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.addf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x16x28x28xf32>
    %97 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%96, %61 : tensor<2x16x28x28xf32>, tensor<2x16x28x28xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.addf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x16x28x28xf32>
    %98 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%97 : tensor<2x16x28x28xf32>) outs(%0 : tensor<2x16x28x28xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.cmpf ugt, %in, %cst : f32
      %307 = arith.select %306, %in, %cst : f32
      linalg.yield %307 : f32
    } -> tensor<2x16x28x28xf32>
    %padded_22 = tensor.pad %98 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg48: index, %arg49: index, %arg50: index, %arg51: index):
      tensor.yield %cst : f32
    } : tensor<2x16x28x28xf32> to tensor<2x16x30x30xf32>
    %99 = tensor.empty() : tensor<2x32x14x14xf32>
    %100 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x32x14x14xf32>
    %101 = linalg.generic {indexing_maps = [#map7, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%padded_22, %arg15 : tensor<2x16x30x30xf32>, tensor<32x16x3x3xf32>) outs(%100 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      %307 = arith.addf %out, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<2x32x14x14xf32>
    %102 = tensor.empty() : tensor<2x32x14x14xf64>
    %103 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%101 : tensor<2x32x14x14xf32>) outs(%102 : tensor<2x32x14x14xf64>) {
    ^bb0(%in: f32, %out: f64):
      %306 = arith.extf %in : f32 to f64
      linalg.yield %306 : f64
    } -> tensor<2x32x14x14xf64>
    %104 = tensor.empty() : tensor<1x32x1x1xf64>
    %105 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_0 : f64) outs(%104 : tensor<1x32x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      linalg.yield %in : f64
    } -> tensor<1x32x1x1xf64>
    %106 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%103 : tensor<2x32x14x14xf64>) outs(%105 : tensor<1x32x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x32x1x1xf64>
    %107 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%106 : tensor<1x32x1x1xf64>) outs(%104 : tensor<1x32x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_4 : f64
      linalg.yield %306 : f64
    } -> tensor<1x32x1x1xf64>
    %108 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%103, %107 : tensor<2x32x14x14xf64>, tensor<1x32x1x1xf64>) outs(%102 : tensor<2x32x14x14xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.subf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x32x14x14xf64>
    %109 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%108, %108 : tensor<2x32x14x14xf64>, tensor<2x32x14x14xf64>) outs(%102 : tensor<2x32x14x14xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.mulf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x32x14x14xf64>
    %110 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%109 : tensor<2x32x14x14xf64>) outs(%105 : tensor<1x32x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x32x1x1xf64>
    %111 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%110 : tensor<1x32x1x1xf64>) outs(%104 : tensor<1x32x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_4 : f64
      linalg.yield %306 : f64
    } -> tensor<1x32x1x1xf64>
    %112 = tensor.empty() : tensor<1x32x1x1xf32>
    %113 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%111 : tensor<1x32x1x1xf64>) outs(%112 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %306 = arith.truncf %in : f64 to f32
      linalg.yield %306 : f32
    } -> tensor<1x32x1x1xf32>
    %114 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%112 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x32x1x1xf32>
    %115 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%101 : tensor<2x32x14x14xf32>) outs(%114 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.addf %in, %out : f32
      linalg.yield %306 : f32
    } -> tensor<1x32x1x1xf32>
    %116 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%115 : tensor<1x32x1x1xf32>) outs(%112 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.divf %in, %cst_5 : f32
      linalg.yield %306 : f32
    } -> tensor<1x32x1x1xf32>
    %117 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%113 : tensor<1x32x1x1xf32>) outs(%112 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.truncf %cst_1 : f64 to f32
      %307 = arith.addf %in, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<1x32x1x1xf32>
    %118 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%117 : tensor<1x32x1x1xf32>) outs(%112 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = math.rsqrt %in : f32
      linalg.yield %306 : f32
    } -> tensor<1x32x1x1xf32>
    %119 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%101, %116 : tensor<2x32x14x14xf32>, tensor<1x32x1x1xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.subf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x32x14x14xf32>
    %120 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%119, %118 : tensor<2x32x14x14xf32>, tensor<1x32x1x1xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x32x14x14xf32>
    %expanded_23 = tensor.expand_shape %arg16 [[0, 1, 2]] output_shape [32, 1, 1] : tensor<32xf32> into tensor<32x1x1xf32>
    %121 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%120, %expanded_23 : tensor<2x32x14x14xf32>, tensor<32x1x1xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x32x14x14xf32>
    %expanded_24 = tensor.expand_shape %arg17 [[0, 1, 2]] output_shape [32, 1, 1] : tensor<32xf32> into tensor<32x1x1xf32>
    %122 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%121, %expanded_24 : tensor<2x32x14x14xf32>, tensor<32x1x1xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.addf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x32x14x14xf32>
    %123 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%122 : tensor<2x32x14x14xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.cmpf ugt, %in, %cst : f32
      %307 = arith.select %306, %in, %cst : f32
      linalg.yield %307 : f32
    } -> tensor<2x32x14x14xf32>
    %padded_25 = tensor.pad %123 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg48: index, %arg49: index, %arg50: index, %arg51: index):
      tensor.yield %cst : f32
    } : tensor<2x32x14x14xf32> to tensor<2x32x16x16xf32>
    %124 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%padded_25, %arg18 : tensor<2x32x16x16xf32>, tensor<32x32x3x3xf32>) outs(%100 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      %307 = arith.addf %out, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<2x32x14x14xf32>
    %125 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%124 : tensor<2x32x14x14xf32>) outs(%102 : tensor<2x32x14x14xf64>) {
    ^bb0(%in: f32, %out: f64):
      %306 = arith.extf %in : f32 to f64
      linalg.yield %306 : f64
    } -> tensor<2x32x14x14xf64>
    %126 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%125 : tensor<2x32x14x14xf64>) outs(%105 : tensor<1x32x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x32x1x1xf64>
    %127 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%126 : tensor<1x32x1x1xf64>) outs(%104 : tensor<1x32x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_4 : f64
      linalg.yield %306 : f64
    } -> tensor<1x32x1x1xf64>
    %128 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%125, %127 : tensor<2x32x14x14xf64>, tensor<1x32x1x1xf64>) outs(%102 : tensor<2x32x14x14xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.subf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x32x14x14xf64>
    %129 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%128, %128 : tensor<2x32x14x14xf64>, tensor<2x32x14x14xf64>) outs(%102 : tensor<2x32x14x14xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.mulf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x32x14x14xf64>
    %130 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%129 : tensor<2x32x14x14xf64>) outs(%105 : tensor<1x32x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x32x1x1xf64>
    %131 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%130 : tensor<1x32x1x1xf64>) outs(%104 : tensor<1x32x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_4 : f64
      linalg.yield %306 : f64
    } -> tensor<1x32x1x1xf64>
    %132 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%131 : tensor<1x32x1x1xf64>) outs(%112 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %306 = arith.truncf %in : f64 to f32
      linalg.yield %306 : f32
    } -> tensor<1x32x1x1xf32>
    %133 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%124 : tensor<2x32x14x14xf32>) outs(%114 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.addf %in, %out : f32
      linalg.yield %306 : f32
    } -> tensor<1x32x1x1xf32>
    %134 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%133 : tensor<1x32x1x1xf32>) outs(%112 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.divf %in, %cst_5 : f32
      linalg.yield %306 : f32
    } -> tensor<1x32x1x1xf32>
    %135 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%132 : tensor<1x32x1x1xf32>) outs(%112 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.truncf %cst_1 : f64 to f32
      %307 = arith.addf %in, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<1x32x1x1xf32>
    %136 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%135 : tensor<1x32x1x1xf32>) outs(%112 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = math.rsqrt %in : f32
      linalg.yield %306 : f32
    } -> tensor<1x32x1x1xf32>
    %137 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%124, %134 : tensor<2x32x14x14xf32>, tensor<1x32x1x1xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.subf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x32x14x14xf32>
    %138 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%137, %136 : tensor<2x32x14x14xf32>, tensor<1x32x1x1xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x32x14x14xf32>
    %expanded_26 = tensor.expand_shape %arg19 [[0, 1, 2]] output_shape [32, 1, 1] : tensor<32xf32> into tensor<32x1x1xf32>
    %139 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%138, %expanded_26 : tensor<2x32x14x14xf32>, tensor<32x1x1xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x32x14x14xf32>
    %expanded_27 = tensor.expand_shape %arg20 [[0, 1, 2]] output_shape [32, 1, 1] : tensor<32xf32> into tensor<32x1x1xf32>
    %140 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%139, %expanded_27 : tensor<2x32x14x14xf32>, tensor<32x1x1xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.addf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x32x14x14xf32>
    %141 = linalg.generic {indexing_maps = [#map7, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%98, %arg21 : tensor<2x16x28x28xf32>, tensor<32x16x1x1xf32>) outs(%100 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      %307 = arith.addf %out, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<2x32x14x14xf32>
    %142 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%141 : tensor<2x32x14x14xf32>) outs(%102 : tensor<2x32x14x14xf64>) {
    ^bb0(%in: f32, %out: f64):
      %306 = arith.extf %in : f32 to f64
      linalg.yield %306 : f64
    } -> tensor<2x32x14x14xf64>
    %143 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%142 : tensor<2x32x14x14xf64>) outs(%105 : tensor<1x32x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x32x1x1xf64>
    %144 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%143 : tensor<1x32x1x1xf64>) outs(%104 : tensor<1x32x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_4 : f64
      linalg.yield %306 : f64
    } -> tensor<1x32x1x1xf64>
    %145 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%142, %144 : tensor<2x32x14x14xf64>, tensor<1x32x1x1xf64>) outs(%102 : tensor<2x32x14x14xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.subf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x32x14x14xf64>
    %146 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%145, %145 : tensor<2x32x14x14xf64>, tensor<2x32x14x14xf64>) outs(%102 : tensor<2x32x14x14xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.mulf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x32x14x14xf64>
    %147 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%146 : tensor<2x32x14x14xf64>) outs(%105 : tensor<1x32x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x32x1x1xf64>
    %148 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%147 : tensor<1x32x1x1xf64>) outs(%104 : tensor<1x32x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_4 : f64
      linalg.yield %306 : f64
    } -> tensor<1x32x1x1xf64>
    %149 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%148 : tensor<1x32x1x1xf64>) outs(%112 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %306 = arith.truncf %in : f64 to f32
      linalg.yield %306 : f32
    } -> tensor<1x32x1x1xf32>
    %150 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%141 : tensor<2x32x14x14xf32>) outs(%114 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.addf %in, %out : f32
      linalg.yield %306 : f32
    } -> tensor<1x32x1x1xf32>
    %151 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%150 : tensor<1x32x1x1xf32>) outs(%112 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.divf %in, %cst_5 : f32
      linalg.yield %306 : f32
    } -> tensor<1x32x1x1xf32>
    %152 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%149 : tensor<1x32x1x1xf32>) outs(%112 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.truncf %cst_1 : f64 to f32
      %307 = arith.addf %in, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<1x32x1x1xf32>
    %153 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%152 : tensor<1x32x1x1xf32>) outs(%112 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = math.rsqrt %in : f32
      linalg.yield %306 : f32
    } -> tensor<1x32x1x1xf32>
    %154 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%141, %151 : tensor<2x32x14x14xf32>, tensor<1x32x1x1xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.subf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x32x14x14xf32>
    %155 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%154, %153 : tensor<2x32x14x14xf32>, tensor<1x32x1x1xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x32x14x14xf32>
    %expanded_28 = tensor.expand_shape %arg22 [[0, 1, 2]] output_shape [32, 1, 1] : tensor<32xf32> into tensor<32x1x1xf32>
    %156 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%155, %expanded_28 : tensor<2x32x14x14xf32>, tensor<32x1x1xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x32x14x14xf32>
    %expanded_29 = tensor.expand_shape %arg23 [[0, 1, 2]] output_shape [32, 1, 1] : tensor<32xf32> into tensor<32x1x1xf32>
    %157 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%156, %expanded_29 : tensor<2x32x14x14xf32>, tensor<32x1x1xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.addf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x32x14x14xf32>
    %158 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%140, %157 : tensor<2x32x14x14xf32>, tensor<2x32x14x14xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.addf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x32x14x14xf32>
    %159 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%158 : tensor<2x32x14x14xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.cmpf ugt, %in, %cst : f32
      %307 = arith.select %306, %in, %cst : f32
      linalg.yield %307 : f32
    } -> tensor<2x32x14x14xf32>
    %padded_30 = tensor.pad %159 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg48: index, %arg49: index, %arg50: index, %arg51: index):
      tensor.yield %cst : f32
    } : tensor<2x32x14x14xf32> to tensor<2x32x16x16xf32>
    %160 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%padded_30, %arg24 : tensor<2x32x16x16xf32>, tensor<32x32x3x3xf32>) outs(%100 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      %307 = arith.addf %out, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<2x32x14x14xf32>
    %161 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%160 : tensor<2x32x14x14xf32>) outs(%102 : tensor<2x32x14x14xf64>) {
    ^bb0(%in: f32, %out: f64):
      %306 = arith.extf %in : f32 to f64
      linalg.yield %306 : f64
    } -> tensor<2x32x14x14xf64>
    %162 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%161 : tensor<2x32x14x14xf64>) outs(%105 : tensor<1x32x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x32x1x1xf64>
    %163 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%162 : tensor<1x32x1x1xf64>) outs(%104 : tensor<1x32x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_4 : f64
      linalg.yield %306 : f64
    } -> tensor<1x32x1x1xf64>
    %164 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%161, %163 : tensor<2x32x14x14xf64>, tensor<1x32x1x1xf64>) outs(%102 : tensor<2x32x14x14xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.subf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x32x14x14xf64>
    %165 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%164, %164 : tensor<2x32x14x14xf64>, tensor<2x32x14x14xf64>) outs(%102 : tensor<2x32x14x14xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.mulf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x32x14x14xf64>
    %166 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%165 : tensor<2x32x14x14xf64>) outs(%105 : tensor<1x32x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x32x1x1xf64>
    %167 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%166 : tensor<1x32x1x1xf64>) outs(%104 : tensor<1x32x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_4 : f64
      linalg.yield %306 : f64
    } -> tensor<1x32x1x1xf64>
    %168 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%167 : tensor<1x32x1x1xf64>) outs(%112 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %306 = arith.truncf %in : f64 to f32
      linalg.yield %306 : f32
    } -> tensor<1x32x1x1xf32>
    %169 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%160 : tensor<2x32x14x14xf32>) outs(%114 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.addf %in, %out : f32
      linalg.yield %306 : f32
    } -> tensor<1x32x1x1xf32>
    %170 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%169 : tensor<1x32x1x1xf32>) outs(%112 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.divf %in, %cst_5 : f32
      linalg.yield %306 : f32
    } -> tensor<1x32x1x1xf32>
    %171 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%168 : tensor<1x32x1x1xf32>) outs(%112 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.truncf %cst_1 : f64 to f32
      %307 = arith.addf %in, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<1x32x1x1xf32>
    %172 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%171 : tensor<1x32x1x1xf32>) outs(%112 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = math.rsqrt %in : f32
      linalg.yield %306 : f32
    } -> tensor<1x32x1x1xf32>
    %173 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%160, %170 : tensor<2x32x14x14xf32>, tensor<1x32x1x1xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.subf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x32x14x14xf32>
    %174 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%173, %172 : tensor<2x32x14x14xf32>, tensor<1x32x1x1xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x32x14x14xf32>
    %expanded_31 = tensor.expand_shape %arg25 [[0, 1, 2]] output_shape [32, 1, 1] : tensor<32xf32> into tensor<32x1x1xf32>
    %175 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%174, %expanded_31 : tensor<2x32x14x14xf32>, tensor<32x1x1xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x32x14x14xf32>
    %expanded_32 = tensor.expand_shape %arg26 [[0, 1, 2]] output_shape [32, 1, 1] : tensor<32xf32> into tensor<32x1x1xf32>
    %176 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%175, %expanded_32 : tensor<2x32x14x14xf32>, tensor<32x1x1xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.addf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x32x14x14xf32>
    %177 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%176 : tensor<2x32x14x14xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.cmpf ugt, %in, %cst : f32
      %307 = arith.select %306, %in, %cst : f32
      linalg.yield %307 : f32
    } -> tensor<2x32x14x14xf32>
    %padded_33 = tensor.pad %177 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg48: index, %arg49: index, %arg50: index, %arg51: index):
      tensor.yield %cst : f32
    } : tensor<2x32x14x14xf32> to tensor<2x32x16x16xf32>
    %178 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%padded_33, %arg27 : tensor<2x32x16x16xf32>, tensor<32x32x3x3xf32>) outs(%100 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      %307 = arith.addf %out, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<2x32x14x14xf32>
    %179 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%178 : tensor<2x32x14x14xf32>) outs(%102 : tensor<2x32x14x14xf64>) {
    ^bb0(%in: f32, %out: f64):
      %306 = arith.extf %in : f32 to f64
      linalg.yield %306 : f64
    } -> tensor<2x32x14x14xf64>
    %180 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%179 : tensor<2x32x14x14xf64>) outs(%105 : tensor<1x32x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x32x1x1xf64>
    %181 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%180 : tensor<1x32x1x1xf64>) outs(%104 : tensor<1x32x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_4 : f64
      linalg.yield %306 : f64
    } -> tensor<1x32x1x1xf64>
    %182 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%179, %181 : tensor<2x32x14x14xf64>, tensor<1x32x1x1xf64>) outs(%102 : tensor<2x32x14x14xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.subf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x32x14x14xf64>
    %183 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%182, %182 : tensor<2x32x14x14xf64>, tensor<2x32x14x14xf64>) outs(%102 : tensor<2x32x14x14xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.mulf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x32x14x14xf64>
    %184 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%183 : tensor<2x32x14x14xf64>) outs(%105 : tensor<1x32x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x32x1x1xf64>
    %185 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%184 : tensor<1x32x1x1xf64>) outs(%104 : tensor<1x32x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_4 : f64
      linalg.yield %306 : f64
    } -> tensor<1x32x1x1xf64>
    %186 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%185 : tensor<1x32x1x1xf64>) outs(%112 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %306 = arith.truncf %in : f64 to f32
      linalg.yield %306 : f32
    } -> tensor<1x32x1x1xf32>
    %187 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%178 : tensor<2x32x14x14xf32>) outs(%114 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.addf %in, %out : f32
      linalg.yield %306 : f32
    } -> tensor<1x32x1x1xf32>
    %188 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%187 : tensor<1x32x1x1xf32>) outs(%112 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.divf %in, %cst_5 : f32
      linalg.yield %306 : f32
    } -> tensor<1x32x1x1xf32>
    %189 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%186 : tensor<1x32x1x1xf32>) outs(%112 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.truncf %cst_1 : f64 to f32
      %307 = arith.addf %in, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<1x32x1x1xf32>
    %190 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%189 : tensor<1x32x1x1xf32>) outs(%112 : tensor<1x32x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = math.rsqrt %in : f32
      linalg.yield %306 : f32
    } -> tensor<1x32x1x1xf32>
    %191 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%178, %188 : tensor<2x32x14x14xf32>, tensor<1x32x1x1xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.subf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x32x14x14xf32>
    %192 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%191, %190 : tensor<2x32x14x14xf32>, tensor<1x32x1x1xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x32x14x14xf32>
    %expanded_34 = tensor.expand_shape %arg28 [[0, 1, 2]] output_shape [32, 1, 1] : tensor<32xf32> into tensor<32x1x1xf32>
    %193 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%192, %expanded_34 : tensor<2x32x14x14xf32>, tensor<32x1x1xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x32x14x14xf32>
    %expanded_35 = tensor.expand_shape %arg29 [[0, 1, 2]] output_shape [32, 1, 1] : tensor<32xf32> into tensor<32x1x1xf32>
    %194 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%193, %expanded_35 : tensor<2x32x14x14xf32>, tensor<32x1x1xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.addf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x32x14x14xf32>
    %195 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%194, %159 : tensor<2x32x14x14xf32>, tensor<2x32x14x14xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.addf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x32x14x14xf32>
    %196 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%195 : tensor<2x32x14x14xf32>) outs(%99 : tensor<2x32x14x14xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.cmpf ugt, %in, %cst : f32
      %307 = arith.select %306, %in, %cst : f32
      linalg.yield %307 : f32
    } -> tensor<2x32x14x14xf32>
    %padded_36 = tensor.pad %196 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg48: index, %arg49: index, %arg50: index, %arg51: index):
      tensor.yield %cst : f32
    } : tensor<2x32x14x14xf32> to tensor<2x32x16x16xf32>
    %197 = tensor.empty() : tensor<2x64x7x7xf32>
    %198 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x64x7x7xf32>
    %199 = linalg.generic {indexing_maps = [#map7, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%padded_36, %arg30 : tensor<2x32x16x16xf32>, tensor<64x32x3x3xf32>) outs(%198 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      %307 = arith.addf %out, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<2x64x7x7xf32>
    %200 = tensor.empty() : tensor<2x64x7x7xf64>
    %201 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%199 : tensor<2x64x7x7xf32>) outs(%200 : tensor<2x64x7x7xf64>) {
    ^bb0(%in: f32, %out: f64):
      %306 = arith.extf %in : f32 to f64
      linalg.yield %306 : f64
    } -> tensor<2x64x7x7xf64>
    %202 = tensor.empty() : tensor<1x64x1x1xf64>
    %203 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_0 : f64) outs(%202 : tensor<1x64x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      linalg.yield %in : f64
    } -> tensor<1x64x1x1xf64>
    %204 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%201 : tensor<2x64x7x7xf64>) outs(%203 : tensor<1x64x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x64x1x1xf64>
    %205 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%204 : tensor<1x64x1x1xf64>) outs(%202 : tensor<1x64x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_6 : f64
      linalg.yield %306 : f64
    } -> tensor<1x64x1x1xf64>
    %206 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%201, %205 : tensor<2x64x7x7xf64>, tensor<1x64x1x1xf64>) outs(%200 : tensor<2x64x7x7xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.subf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x64x7x7xf64>
    %207 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%206, %206 : tensor<2x64x7x7xf64>, tensor<2x64x7x7xf64>) outs(%200 : tensor<2x64x7x7xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.mulf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x64x7x7xf64>
    %208 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%207 : tensor<2x64x7x7xf64>) outs(%203 : tensor<1x64x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x64x1x1xf64>
    %209 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%208 : tensor<1x64x1x1xf64>) outs(%202 : tensor<1x64x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_6 : f64
      linalg.yield %306 : f64
    } -> tensor<1x64x1x1xf64>
    %210 = tensor.empty() : tensor<1x64x1x1xf32>
    %211 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%209 : tensor<1x64x1x1xf64>) outs(%210 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %306 = arith.truncf %in : f64 to f32
      linalg.yield %306 : f32
    } -> tensor<1x64x1x1xf32>
    %212 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%210 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x64x1x1xf32>
    %213 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%199 : tensor<2x64x7x7xf32>) outs(%212 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.addf %in, %out : f32
      linalg.yield %306 : f32
    } -> tensor<1x64x1x1xf32>
    %214 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%213 : tensor<1x64x1x1xf32>) outs(%210 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.divf %in, %cst_7 : f32
      linalg.yield %306 : f32
    } -> tensor<1x64x1x1xf32>
    %215 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%211 : tensor<1x64x1x1xf32>) outs(%210 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.truncf %cst_1 : f64 to f32
      %307 = arith.addf %in, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<1x64x1x1xf32>
    %216 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%215 : tensor<1x64x1x1xf32>) outs(%210 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = math.rsqrt %in : f32
      linalg.yield %306 : f32
    } -> tensor<1x64x1x1xf32>
    %217 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%199, %214 : tensor<2x64x7x7xf32>, tensor<1x64x1x1xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.subf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x7x7xf32>
    %218 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%217, %216 : tensor<2x64x7x7xf32>, tensor<1x64x1x1xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x7x7xf32>
    %expanded_37 = tensor.expand_shape %arg31 [[0, 1, 2]] output_shape [64, 1, 1] : tensor<64xf32> into tensor<64x1x1xf32>
    %219 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%218, %expanded_37 : tensor<2x64x7x7xf32>, tensor<64x1x1xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x7x7xf32>
    %expanded_38 = tensor.expand_shape %arg32 [[0, 1, 2]] output_shape [64, 1, 1] : tensor<64xf32> into tensor<64x1x1xf32>
    %220 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%219, %expanded_38 : tensor<2x64x7x7xf32>, tensor<64x1x1xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.addf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x7x7xf32>
    %221 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%220 : tensor<2x64x7x7xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.cmpf ugt, %in, %cst : f32
      %307 = arith.select %306, %in, %cst : f32
      linalg.yield %307 : f32
    } -> tensor<2x64x7x7xf32>
    %padded_39 = tensor.pad %221 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg48: index, %arg49: index, %arg50: index, %arg51: index):
      tensor.yield %cst : f32
    } : tensor<2x64x7x7xf32> to tensor<2x64x9x9xf32>
    %222 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%padded_39, %arg33 : tensor<2x64x9x9xf32>, tensor<64x64x3x3xf32>) outs(%198 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      %307 = arith.addf %out, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<2x64x7x7xf32>
    %223 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%222 : tensor<2x64x7x7xf32>) outs(%200 : tensor<2x64x7x7xf64>) {
    ^bb0(%in: f32, %out: f64):
      %306 = arith.extf %in : f32 to f64
      linalg.yield %306 : f64
    } -> tensor<2x64x7x7xf64>
    %224 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%223 : tensor<2x64x7x7xf64>) outs(%203 : tensor<1x64x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x64x1x1xf64>
    %225 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%224 : tensor<1x64x1x1xf64>) outs(%202 : tensor<1x64x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_6 : f64
      linalg.yield %306 : f64
    } -> tensor<1x64x1x1xf64>
    %226 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%223, %225 : tensor<2x64x7x7xf64>, tensor<1x64x1x1xf64>) outs(%200 : tensor<2x64x7x7xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.subf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x64x7x7xf64>
    %227 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%226, %226 : tensor<2x64x7x7xf64>, tensor<2x64x7x7xf64>) outs(%200 : tensor<2x64x7x7xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.mulf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x64x7x7xf64>
    %228 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%227 : tensor<2x64x7x7xf64>) outs(%203 : tensor<1x64x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x64x1x1xf64>
    %229 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%228 : tensor<1x64x1x1xf64>) outs(%202 : tensor<1x64x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_6 : f64
      linalg.yield %306 : f64
    } -> tensor<1x64x1x1xf64>
    %230 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%229 : tensor<1x64x1x1xf64>) outs(%210 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %306 = arith.truncf %in : f64 to f32
      linalg.yield %306 : f32
    } -> tensor<1x64x1x1xf32>
    %231 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%222 : tensor<2x64x7x7xf32>) outs(%212 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.addf %in, %out : f32
      linalg.yield %306 : f32
    } -> tensor<1x64x1x1xf32>
    %232 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%231 : tensor<1x64x1x1xf32>) outs(%210 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.divf %in, %cst_7 : f32
      linalg.yield %306 : f32
    } -> tensor<1x64x1x1xf32>
    %233 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%230 : tensor<1x64x1x1xf32>) outs(%210 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.truncf %cst_1 : f64 to f32
      %307 = arith.addf %in, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<1x64x1x1xf32>
    %234 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%233 : tensor<1x64x1x1xf32>) outs(%210 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = math.rsqrt %in : f32
      linalg.yield %306 : f32
    } -> tensor<1x64x1x1xf32>
    %235 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%222, %232 : tensor<2x64x7x7xf32>, tensor<1x64x1x1xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.subf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x7x7xf32>
    %236 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%235, %234 : tensor<2x64x7x7xf32>, tensor<1x64x1x1xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x7x7xf32>
    %expanded_40 = tensor.expand_shape %arg34 [[0, 1, 2]] output_shape [64, 1, 1] : tensor<64xf32> into tensor<64x1x1xf32>
    %237 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%236, %expanded_40 : tensor<2x64x7x7xf32>, tensor<64x1x1xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x7x7xf32>
    %expanded_41 = tensor.expand_shape %arg35 [[0, 1, 2]] output_shape [64, 1, 1] : tensor<64xf32> into tensor<64x1x1xf32>
    %238 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%237, %expanded_41 : tensor<2x64x7x7xf32>, tensor<64x1x1xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.addf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x7x7xf32>
    %239 = linalg.generic {indexing_maps = [#map7, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%196, %arg36 : tensor<2x32x14x14xf32>, tensor<64x32x1x1xf32>) outs(%198 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      %307 = arith.addf %out, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<2x64x7x7xf32>
    %240 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%239 : tensor<2x64x7x7xf32>) outs(%200 : tensor<2x64x7x7xf64>) {
    ^bb0(%in: f32, %out: f64):
      %306 = arith.extf %in : f32 to f64
      linalg.yield %306 : f64
    } -> tensor<2x64x7x7xf64>
    %241 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%240 : tensor<2x64x7x7xf64>) outs(%203 : tensor<1x64x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x64x1x1xf64>
    %242 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%241 : tensor<1x64x1x1xf64>) outs(%202 : tensor<1x64x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_6 : f64
      linalg.yield %306 : f64
    } -> tensor<1x64x1x1xf64>
    %243 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%240, %242 : tensor<2x64x7x7xf64>, tensor<1x64x1x1xf64>) outs(%200 : tensor<2x64x7x7xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.subf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x64x7x7xf64>
    %244 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%243, %243 : tensor<2x64x7x7xf64>, tensor<2x64x7x7xf64>) outs(%200 : tensor<2x64x7x7xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.mulf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x64x7x7xf64>
    %245 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%244 : tensor<2x64x7x7xf64>) outs(%203 : tensor<1x64x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x64x1x1xf64>
    %246 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%245 : tensor<1x64x1x1xf64>) outs(%202 : tensor<1x64x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_6 : f64
      linalg.yield %306 : f64
    } -> tensor<1x64x1x1xf64>
    %247 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%246 : tensor<1x64x1x1xf64>) outs(%210 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %306 = arith.truncf %in : f64 to f32
      linalg.yield %306 : f32
    } -> tensor<1x64x1x1xf32>
    %248 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%239 : tensor<2x64x7x7xf32>) outs(%212 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.addf %in, %out : f32
      linalg.yield %306 : f32
    } -> tensor<1x64x1x1xf32>
    %249 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%248 : tensor<1x64x1x1xf32>) outs(%210 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.divf %in, %cst_7 : f32
      linalg.yield %306 : f32
    } -> tensor<1x64x1x1xf32>
    %250 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%247 : tensor<1x64x1x1xf32>) outs(%210 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.truncf %cst_1 : f64 to f32
      %307 = arith.addf %in, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<1x64x1x1xf32>
    %251 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%250 : tensor<1x64x1x1xf32>) outs(%210 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = math.rsqrt %in : f32
      linalg.yield %306 : f32
    } -> tensor<1x64x1x1xf32>
    %252 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%239, %249 : tensor<2x64x7x7xf32>, tensor<1x64x1x1xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.subf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x7x7xf32>
    %253 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%252, %251 : tensor<2x64x7x7xf32>, tensor<1x64x1x1xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x7x7xf32>
    %expanded_42 = tensor.expand_shape %arg37 [[0, 1, 2]] output_shape [64, 1, 1] : tensor<64xf32> into tensor<64x1x1xf32>
    %254 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%253, %expanded_42 : tensor<2x64x7x7xf32>, tensor<64x1x1xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x7x7xf32>
    %expanded_43 = tensor.expand_shape %arg38 [[0, 1, 2]] output_shape [64, 1, 1] : tensor<64xf32> into tensor<64x1x1xf32>
    %255 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%254, %expanded_43 : tensor<2x64x7x7xf32>, tensor<64x1x1xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.addf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x7x7xf32>
    %256 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%238, %255 : tensor<2x64x7x7xf32>, tensor<2x64x7x7xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.addf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x7x7xf32>
    %257 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%256 : tensor<2x64x7x7xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.cmpf ugt, %in, %cst : f32
      %307 = arith.select %306, %in, %cst : f32
      linalg.yield %307 : f32
    } -> tensor<2x64x7x7xf32>
    %padded_44 = tensor.pad %257 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg48: index, %arg49: index, %arg50: index, %arg51: index):
      tensor.yield %cst : f32
    } : tensor<2x64x7x7xf32> to tensor<2x64x9x9xf32>
    %258 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%padded_44, %arg39 : tensor<2x64x9x9xf32>, tensor<64x64x3x3xf32>) outs(%198 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      %307 = arith.addf %out, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<2x64x7x7xf32>
    %259 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%258 : tensor<2x64x7x7xf32>) outs(%200 : tensor<2x64x7x7xf64>) {
    ^bb0(%in: f32, %out: f64):
      %306 = arith.extf %in : f32 to f64
      linalg.yield %306 : f64
    } -> tensor<2x64x7x7xf64>
    %260 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%259 : tensor<2x64x7x7xf64>) outs(%203 : tensor<1x64x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x64x1x1xf64>
    %261 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%260 : tensor<1x64x1x1xf64>) outs(%202 : tensor<1x64x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_6 : f64
      linalg.yield %306 : f64
    } -> tensor<1x64x1x1xf64>
    %262 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%259, %261 : tensor<2x64x7x7xf64>, tensor<1x64x1x1xf64>) outs(%200 : tensor<2x64x7x7xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.subf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x64x7x7xf64>
    %263 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%262, %262 : tensor<2x64x7x7xf64>, tensor<2x64x7x7xf64>) outs(%200 : tensor<2x64x7x7xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.mulf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x64x7x7xf64>
    %264 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%263 : tensor<2x64x7x7xf64>) outs(%203 : tensor<1x64x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x64x1x1xf64>
    %265 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%264 : tensor<1x64x1x1xf64>) outs(%202 : tensor<1x64x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_6 : f64
      linalg.yield %306 : f64
    } -> tensor<1x64x1x1xf64>
    %266 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%265 : tensor<1x64x1x1xf64>) outs(%210 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %306 = arith.truncf %in : f64 to f32
      linalg.yield %306 : f32
    } -> tensor<1x64x1x1xf32>
    %267 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%258 : tensor<2x64x7x7xf32>) outs(%212 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.addf %in, %out : f32
      linalg.yield %306 : f32
    } -> tensor<1x64x1x1xf32>
    %268 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%267 : tensor<1x64x1x1xf32>) outs(%210 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.divf %in, %cst_7 : f32
      linalg.yield %306 : f32
    } -> tensor<1x64x1x1xf32>
    %269 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%266 : tensor<1x64x1x1xf32>) outs(%210 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.truncf %cst_1 : f64 to f32
      %307 = arith.addf %in, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<1x64x1x1xf32>
    %270 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%269 : tensor<1x64x1x1xf32>) outs(%210 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = math.rsqrt %in : f32
      linalg.yield %306 : f32
    } -> tensor<1x64x1x1xf32>
    %271 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%258, %268 : tensor<2x64x7x7xf32>, tensor<1x64x1x1xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.subf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x7x7xf32>
    %272 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%271, %270 : tensor<2x64x7x7xf32>, tensor<1x64x1x1xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x7x7xf32>
    %expanded_45 = tensor.expand_shape %arg40 [[0, 1, 2]] output_shape [64, 1, 1] : tensor<64xf32> into tensor<64x1x1xf32>
    %273 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%272, %expanded_45 : tensor<2x64x7x7xf32>, tensor<64x1x1xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x7x7xf32>
    %expanded_46 = tensor.expand_shape %arg41 [[0, 1, 2]] output_shape [64, 1, 1] : tensor<64xf32> into tensor<64x1x1xf32>
    %274 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%273, %expanded_46 : tensor<2x64x7x7xf32>, tensor<64x1x1xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.addf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x7x7xf32>
    %275 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%274 : tensor<2x64x7x7xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.cmpf ugt, %in, %cst : f32
      %307 = arith.select %306, %in, %cst : f32
      linalg.yield %307 : f32
    } -> tensor<2x64x7x7xf32>
    %padded_47 = tensor.pad %275 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg48: index, %arg49: index, %arg50: index, %arg51: index):
      tensor.yield %cst : f32
    } : tensor<2x64x7x7xf32> to tensor<2x64x9x9xf32>
    %276 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%padded_47, %arg42 : tensor<2x64x9x9xf32>, tensor<64x64x3x3xf32>) outs(%198 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      %307 = arith.addf %out, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<2x64x7x7xf32>
    %277 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%276 : tensor<2x64x7x7xf32>) outs(%200 : tensor<2x64x7x7xf64>) {
    ^bb0(%in: f32, %out: f64):
      %306 = arith.extf %in : f32 to f64
      linalg.yield %306 : f64
    } -> tensor<2x64x7x7xf64>
    %278 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%277 : tensor<2x64x7x7xf64>) outs(%203 : tensor<1x64x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x64x1x1xf64>
    %279 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%278 : tensor<1x64x1x1xf64>) outs(%202 : tensor<1x64x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_6 : f64
      linalg.yield %306 : f64
    } -> tensor<1x64x1x1xf64>
    %280 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%277, %279 : tensor<2x64x7x7xf64>, tensor<1x64x1x1xf64>) outs(%200 : tensor<2x64x7x7xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.subf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x64x7x7xf64>
    %281 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%280, %280 : tensor<2x64x7x7xf64>, tensor<2x64x7x7xf64>) outs(%200 : tensor<2x64x7x7xf64>) {
    ^bb0(%in: f64, %in_50: f64, %out: f64):
      %306 = arith.mulf %in, %in_50 : f64
      linalg.yield %306 : f64
    } -> tensor<2x64x7x7xf64>
    %282 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%281 : tensor<2x64x7x7xf64>) outs(%203 : tensor<1x64x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.addf %in, %out : f64
      linalg.yield %306 : f64
    } -> tensor<1x64x1x1xf64>
    %283 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%282 : tensor<1x64x1x1xf64>) outs(%202 : tensor<1x64x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %306 = arith.divf %in, %cst_6 : f64
      linalg.yield %306 : f64
    } -> tensor<1x64x1x1xf64>
    %284 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%283 : tensor<1x64x1x1xf64>) outs(%210 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %306 = arith.truncf %in : f64 to f32
      linalg.yield %306 : f32
    } -> tensor<1x64x1x1xf32>
    %285 = linalg.generic {indexing_maps = [#map1, #map5], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%276 : tensor<2x64x7x7xf32>) outs(%212 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.addf %in, %out : f32
      linalg.yield %306 : f32
    } -> tensor<1x64x1x1xf32>
    %286 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%285 : tensor<1x64x1x1xf32>) outs(%210 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.divf %in, %cst_7 : f32
      linalg.yield %306 : f32
    } -> tensor<1x64x1x1xf32>
    %287 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%284 : tensor<1x64x1x1xf32>) outs(%210 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.truncf %cst_1 : f64 to f32
      %307 = arith.addf %in, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<1x64x1x1xf32>
    %288 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%287 : tensor<1x64x1x1xf32>) outs(%210 : tensor<1x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = math.rsqrt %in : f32
      linalg.yield %306 : f32
    } -> tensor<1x64x1x1xf32>
    %289 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%276, %286 : tensor<2x64x7x7xf32>, tensor<1x64x1x1xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.subf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x7x7xf32>
    %290 = linalg.generic {indexing_maps = [#map1, #map5, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%289, %288 : tensor<2x64x7x7xf32>, tensor<1x64x1x1xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x7x7xf32>
    %expanded_48 = tensor.expand_shape %arg43 [[0, 1, 2]] output_shape [64, 1, 1] : tensor<64xf32> into tensor<64x1x1xf32>
    %291 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%290, %expanded_48 : tensor<2x64x7x7xf32>, tensor<64x1x1xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x7x7xf32>
    %expanded_49 = tensor.expand_shape %arg44 [[0, 1, 2]] output_shape [64, 1, 1] : tensor<64xf32> into tensor<64x1x1xf32>
    %292 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%291, %expanded_49 : tensor<2x64x7x7xf32>, tensor<64x1x1xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.addf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x7x7xf32>
    %293 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%292, %257 : tensor<2x64x7x7xf32>, tensor<2x64x7x7xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.addf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x7x7xf32>
    %294 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%293 : tensor<2x64x7x7xf32>) outs(%197 : tensor<2x64x7x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.cmpf ugt, %in, %cst : f32
      %307 = arith.select %306, %in, %cst : f32
      linalg.yield %307 : f32
    } -> tensor<2x64x7x7xf32>
    %295 = tensor.empty() : tensor<2x64x1x1xf32>
    %296 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst : f32) outs(%295 : tensor<2x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x64x1x1xf32>
    %297 = linalg.generic {indexing_maps = [#map1, #map8], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%294 : tensor<2x64x7x7xf32>) outs(%296 : tensor<2x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.addf %in, %out : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x1x1xf32>
    %298 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%297 : tensor<2x64x1x1xf32>) outs(%295 : tensor<2x64x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %306 = arith.divf %in, %cst_8 : f32
      linalg.yield %306 : f32
    } -> tensor<2x64x1x1xf32>
    %collapsed = tensor.collapse_shape %298 [[0], [1, 2, 3]] : tensor<2x64x1x1xf32> into tensor<2x64xf32>
    %299 = tensor.empty() : tensor<64x10xf32>
    %300 = linalg.generic {indexing_maps = [#map9, #map10], iterator_types = ["parallel", "parallel"]} ins(%arg45 : tensor<10x64xf32>) outs(%299 : tensor<64x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<64x10xf32>
    %301 = tensor.empty() : tensor<2x10xf32>
    %302 = linalg.generic {indexing_maps = [#map11, #map10], iterator_types = ["parallel", "parallel"]} ins(%cst : f32) outs(%301 : tensor<2x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x10xf32>
    %303 = linalg.generic {indexing_maps = [#map12, #map13, #map14], iterator_types = ["parallel", "parallel", "reduction"]} ins(%collapsed, %300 : tensor<2x64xf32>, tensor<64x10xf32>) outs(%302 : tensor<2x10xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.mulf %in, %in_50 : f32
      %307 = arith.addf %out, %306 : f32
      linalg.yield %307 : f32
    } -> tensor<2x10xf32>
    %304 = linalg.generic {indexing_maps = [#map15, #map10], iterator_types = ["parallel", "parallel"]} ins(%arg46 : tensor<10xf32>) outs(%301 : tensor<2x10xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x10xf32>
    %305 = linalg.generic {indexing_maps = [#map10, #map10, #map10], iterator_types = ["parallel", "parallel"]} ins(%303, %304 : tensor<2x10xf32>, tensor<2x10xf32>) outs(%301 : tensor<2x10xf32>) {
    ^bb0(%in: f32, %in_50: f32, %out: f32):
      %306 = arith.addf %in, %in_50 : f32
      linalg.yield %306 : f32
    } -> tensor<2x10xf32>
    return %305 : tensor<2x10xf32>
  }
}

