// LeNet-5 (LeCun et al., "Gradient-based learning applied to document
// recognition", Proc. IEEE 1998) for 28x28 images, written for pp-mlir in the
// style torch-mlir emits for torch.nn modules (linalg on tensors, NCHW,
// biases broadcast by linalg.generic, ReLU as cmpf + select, max pooling,
// nn.Linear as a transposed weight and a matmul). Our own code.
//
//   conv 1->6 5x5, ReLU, max pool 2x2 -> conv 6->16 5x5, ReLU, max pool 2x2
//   -> flatten 256 -> linear 120, ReLU -> linear 84, ReLU -> linear 10
//
// One micro-batch is 8 images; the parameters are marked pp.parameter.
//
//   pp-run examples/lenet.mlir --function=lenet --loss=cross-entropy \
//     --ranks=2 --microbatches=8 --schedule=1f1b --plan-costs=measured --check
#map_bias4 = affine_map<(d0, d1, d2, d3) -> (d1)>
#map_id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map_bias2 = affine_map<(d0, d1) -> (d1)>
#map_id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @lenet(%x: tensor<8x1x28x28xf32>,
                 %c1w: tensor<6x1x5x5xf32> {pp.parameter}, %c1b: tensor<6xf32> {pp.parameter},
                 %c2w: tensor<16x6x5x5xf32> {pp.parameter}, %c2b: tensor<16xf32> {pp.parameter},
                 %f1w: tensor<120x256xf32> {pp.parameter}, %f1b: tensor<120xf32> {pp.parameter},
                 %f2w: tensor<84x120xf32> {pp.parameter}, %f2b: tensor<84xf32> {pp.parameter},
                 %f3w: tensor<10x84xf32> {pp.parameter}, %f3b: tensor<10xf32> {pp.parameter})
    -> tensor<8x10xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  // conv1 + bias + ReLU + pool
  %e1 = tensor.empty() : tensor<8x6x24x24xf32>
  %b1 = linalg.generic {indexing_maps = [#map_bias4, #map_id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1b : tensor<6xf32>) outs(%e1 : tensor<8x6x24x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
  } -> tensor<8x6x24x24xf32>
  %conv1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %c1w : tensor<8x1x28x28xf32>, tensor<6x1x5x5xf32>) outs(%b1 : tensor<8x6x24x24xf32>) -> tensor<8x6x24x24xf32>
  %relu1 = linalg.generic {indexing_maps = [#map_id4, #map_id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv1 : tensor<8x6x24x24xf32>) outs(%e1 : tensor<8x6x24x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %gt = arith.cmpf ugt, %in, %zero : f32
      %r = arith.select %gt, %in, %zero : f32
      linalg.yield %r : f32
  } -> tensor<8x6x24x24xf32>
  %p1e = tensor.empty() : tensor<8x6x12x12xf32>
  %p1i = linalg.fill ins(%ninf : f32) outs(%p1e : tensor<8x6x12x12xf32>) -> tensor<8x6x12x12xf32>
  %k2 = tensor.empty() : tensor<2x2xf32>
  %pool1 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%relu1, %k2 : tensor<8x6x24x24xf32>, tensor<2x2xf32>) outs(%p1i : tensor<8x6x12x12xf32>) -> tensor<8x6x12x12xf32>
  // conv2 + bias + ReLU + pool
  %e2 = tensor.empty() : tensor<8x16x8x8xf32>
  %b2 = linalg.generic {indexing_maps = [#map_bias4, #map_id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c2b : tensor<16xf32>) outs(%e2 : tensor<8x16x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
  } -> tensor<8x16x8x8xf32>
  %conv2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%pool1, %c2w : tensor<8x6x12x12xf32>, tensor<16x6x5x5xf32>) outs(%b2 : tensor<8x16x8x8xf32>) -> tensor<8x16x8x8xf32>
  %relu2 = linalg.generic {indexing_maps = [#map_id4, #map_id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv2 : tensor<8x16x8x8xf32>) outs(%e2 : tensor<8x16x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %gt = arith.cmpf ugt, %in, %zero : f32
      %r = arith.select %gt, %in, %zero : f32
      linalg.yield %r : f32
  } -> tensor<8x16x8x8xf32>
  %p2e = tensor.empty() : tensor<8x16x4x4xf32>
  %p2i = linalg.fill ins(%ninf : f32) outs(%p2e : tensor<8x16x4x4xf32>) -> tensor<8x16x4x4xf32>
  %pool2 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%relu2, %k2 : tensor<8x16x8x8xf32>, tensor<2x2xf32>) outs(%p2i : tensor<8x16x4x4xf32>) -> tensor<8x16x4x4xf32>
  %flat = tensor.collapse_shape %pool2 [[0], [1, 2, 3]] : tensor<8x16x4x4xf32> into tensor<8x256xf32>
  // fc1 (nn.Linear 256 -> 120) + ReLU
  %t1e = tensor.empty() : tensor<256x120xf32>
  %f1t = linalg.transpose ins(%f1w : tensor<120x256xf32>) outs(%t1e : tensor<256x120xf32>) permutation = [1, 0]
  %h1e = tensor.empty() : tensor<8x120xf32>
  %h1z = linalg.fill ins(%zero : f32) outs(%h1e : tensor<8x120xf32>) -> tensor<8x120xf32>
  %h1m = linalg.matmul ins(%flat, %f1t : tensor<8x256xf32>, tensor<256x120xf32>) outs(%h1z : tensor<8x120xf32>) -> tensor<8x120xf32>
  %h1 = linalg.generic {indexing_maps = [#map_id2, #map_bias2, #map_id2], iterator_types = ["parallel", "parallel"]}
      ins(%h1m, %f1b : tensor<8x120xf32>, tensor<120xf32>) outs(%h1e : tensor<8x120xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %s = arith.addf %a, %b : f32
      %gt = arith.cmpf ugt, %s, %zero : f32
      %r = arith.select %gt, %s, %zero : f32
      linalg.yield %r : f32
  } -> tensor<8x120xf32>
  // fc2 (84) + ReLU
  %t2e = tensor.empty() : tensor<120x84xf32>
  %f2t = linalg.transpose ins(%f2w : tensor<84x120xf32>) outs(%t2e : tensor<120x84xf32>) permutation = [1, 0]
  %h2e = tensor.empty() : tensor<8x84xf32>
  %h2z = linalg.fill ins(%zero : f32) outs(%h2e : tensor<8x84xf32>) -> tensor<8x84xf32>
  %h2m = linalg.matmul ins(%h1, %f2t : tensor<8x120xf32>, tensor<120x84xf32>) outs(%h2z : tensor<8x84xf32>) -> tensor<8x84xf32>
  %h2 = linalg.generic {indexing_maps = [#map_id2, #map_bias2, #map_id2], iterator_types = ["parallel", "parallel"]}
      ins(%h2m, %f2b : tensor<8x84xf32>, tensor<84xf32>) outs(%h2e : tensor<8x84xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %s = arith.addf %a, %b : f32
      %gt = arith.cmpf ugt, %s, %zero : f32
      %r = arith.select %gt, %s, %zero : f32
      linalg.yield %r : f32
  } -> tensor<8x84xf32>
  // fc3 (10)
  %t3e = tensor.empty() : tensor<84x10xf32>
  %f3t = linalg.transpose ins(%f3w : tensor<10x84xf32>) outs(%t3e : tensor<84x10xf32>) permutation = [1, 0]
  %oe = tensor.empty() : tensor<8x10xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<8x10xf32>) -> tensor<8x10xf32>
  %om = linalg.matmul ins(%h2, %f3t : tensor<8x84xf32>, tensor<84x10xf32>) outs(%oz : tensor<8x10xf32>) -> tensor<8x10xf32>
  %o = linalg.generic {indexing_maps = [#map_id2, #map_bias2, #map_id2], iterator_types = ["parallel", "parallel"]}
      ins(%om, %f3b : tensor<8x10xf32>, tensor<10xf32>) outs(%oe : tensor<8x10xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
  } -> tensor<8x10xf32>
  return %o : tensor<8x10xf32>
}
