// Two residual tanh layers written as two calls of one layer function, the
// weights passed per call (a model written for the tests, as a framework
// exports a stack of identical blocks). Each layer holds two matmuls of
// 8192 FLOP, about a quarter of the model's work each.
func.func @layer(%x: tensor<4x16xf32>, %w1: tensor<16x64xf32>,
                 %w2: tensor<64x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e64 = tensor.empty() : tensor<4x64xf32>
  %z64 = linalg.fill ins(%zero : f32) outs(%e64 : tensor<4x64xf32>) -> tensor<4x64xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<4x16xf32>, tensor<16x64xf32>) outs(%z64 : tensor<4x64xf32>) -> tensor<4x64xf32>
  %a = linalg.map { math.tanh } ins(%h : tensor<4x64xf32>) outs(%e64 : tensor<4x64xf32>)
  %e16 = tensor.empty() : tensor<4x16xf32>
  %z16 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %y = linalg.matmul ins(%a, %w2 : tensor<4x64xf32>, tensor<64x16xf32>) outs(%z16 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.add ins(%x, %y : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e16 : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

func.func @two(%x: tensor<4x16xf32>,
               %w1a: tensor<16x64xf32> {pp.parameter}, %w2a: tensor<64x16xf32> {pp.parameter},
               %w1b: tensor<16x64xf32> {pp.parameter}, %w2b: tensor<64x16xf32> {pp.parameter}) -> tensor<4x16xf32> {
  %y1 = call @layer(%x, %w1a, %w2a) : (tensor<4x16xf32>, tensor<16x64xf32>, tensor<64x16xf32>) -> tensor<4x16xf32>
  %y2 = call @layer(%y1, %w1b, %w2b) : (tensor<4x16xf32>, tensor<16x64xf32>, tensor<64x16xf32>) -> tensor<4x16xf32>
  return %y2 : tensor<4x16xf32>
}
