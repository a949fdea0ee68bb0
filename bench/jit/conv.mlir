// Convolutions for bench/jit.sh (our own code): LeNet's conv2
// (examples/lenet.mlir: 8 images of 6 x 12 x 12, 16 filters of 5 x 5) and a
// 3 x 3 convolution of the small ResNet's middle stage
// (examples/resnet-small.mlir: 2 images of 32 x 16 x 16, padded, 32
// filters), each as the linalg.generic pp-prepare-model leaves.
func.func @lenet_conv2(%x: tensor<8x6x12x12xf32>, %w: tensor<16x6x5x5xf32>) -> tensor<8x16x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16x8x8xf32>) -> tensor<8x16x8x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>, affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>, affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<8x6x12x12xf32>, tensor<16x6x5x5xf32>) outs(%z : tensor<8x16x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x16x8x8xf32>
  return %y : tensor<8x16x8x8xf32>
}

func.func @resnet_conv3x3(%x: tensor<2x32x18x18xf32>, %w: tensor<32x32x3x3xf32>) -> tensor<2x32x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x32x16x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x32x16x16xf32>) -> tensor<2x32x16x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>, affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>, affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<2x32x18x18xf32>, tensor<32x32x3x3xf32>) outs(%z : tensor<2x32x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x32x16x16xf32>
  return %y : tensor<2x32x16x16xf32>
}
