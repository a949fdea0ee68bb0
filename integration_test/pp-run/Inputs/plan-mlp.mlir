// A four-layer perceptron for the planning tests (our own): layers of very
// different widths, no pp.split_point markers, so pp-run chooses the cut.
func.func @mlp4(%x: tensor<4x16xf32>, %t: tensor<4x8xf32>,
                %w1: tensor<16x64xf32> {pp.parameter}, %w2: tensor<64x64xf32> {pp.parameter},
                %w3: tensor<64x16xf32> {pp.parameter}, %w4: tensor<16x8xf32> {pp.parameter}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e64 = tensor.empty() : tensor<4x64xf32>
  %z64 = linalg.fill ins(%zero : f32) outs(%e64 : tensor<4x64xf32>) -> tensor<4x64xf32>
  %h1 = linalg.matmul ins(%x, %w1 : tensor<4x16xf32>, tensor<16x64xf32>) outs(%z64 : tensor<4x64xf32>) -> tensor<4x64xf32>
  %a1 = linalg.map { math.tanh } ins(%h1 : tensor<4x64xf32>) outs(%e64 : tensor<4x64xf32>)
  %h2 = linalg.matmul ins(%a1, %w2 : tensor<4x64xf32>, tensor<64x64xf32>) outs(%z64 : tensor<4x64xf32>) -> tensor<4x64xf32>
  %a2 = linalg.map { math.tanh } ins(%h2 : tensor<4x64xf32>) outs(%e64 : tensor<4x64xf32>)
  %e16 = tensor.empty() : tensor<4x16xf32>
  %z16 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h3 = linalg.matmul ins(%a2, %w3 : tensor<4x64xf32>, tensor<64x16xf32>) outs(%z16 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %a3 = linalg.map { math.tanh } ins(%h3 : tensor<4x16xf32>) outs(%e16 : tensor<4x16xf32>)
  %e8 = tensor.empty() : tensor<4x8xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.matmul ins(%a3, %w4 : tensor<4x16xf32>, tensor<16x8xf32>) outs(%z8 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %d = linalg.sub ins(%y, %t : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e8 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %sq = linalg.mul ins(%d, %d : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e8 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.reduce { arith.addf } ins(%sq : tensor<4x8xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1]
  return %loss : tensor<f32>
}
