// A small convolutional model written for the tests (not third-party):
// a 3x3 convolution (NHWC, HWCF), tanh, a dense layer; two stages.
func.func @convnet(%x: tensor<2x6x6x3xf32>, %w1: tensor<3x3x3x4xf32> {pp.parameter}, %w2: tensor<64x5xf32> {pp.parameter}) -> tensor<2x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w1 : tensor<2x6x6x3xf32>, tensor<3x3x3x4xf32>) outs(%z : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %t = linalg.map { math.tanh } ins(%y : tensor<2x4x4x4xf32>) outs(%e : tensor<2x4x4x4xf32>) {pp.split_point}
  %f = tensor.collapse_shape %t [[0], [1, 2, 3]] : tensor<2x4x4x4xf32> into tensor<2x64xf32>
  %e2 = tensor.empty() : tensor<2x5xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x5xf32>) -> tensor<2x5xf32>
  %o = linalg.matmul ins(%f, %w2 : tensor<2x64xf32>, tensor<64x5xf32>) outs(%z2 : tensor<2x5xf32>) -> tensor<2x5xf32>
  return %o : tensor<2x5xf32>
}
