// The four-layer perceptron of plan-mlp.mlir in f64 (our own): a model
// whose contractions cannot take bf16 inputs (bf16.test).
func.func @mlp(%x: tensor<4x16xf64>, %t: tensor<4x8xf64>,
                %w1: tensor<16x64xf64> {pp.parameter}, %w2: tensor<64x64xf64> {pp.parameter},
                %w3: tensor<64x16xf64> {pp.parameter}, %w4: tensor<16x8xf64> {pp.parameter}) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e64 = tensor.empty() : tensor<4x64xf64>
  %z64 = linalg.fill ins(%zero : f64) outs(%e64 : tensor<4x64xf64>) -> tensor<4x64xf64>
  %h1 = linalg.matmul ins(%x, %w1 : tensor<4x16xf64>, tensor<16x64xf64>) outs(%z64 : tensor<4x64xf64>) -> tensor<4x64xf64>
  %a1 = linalg.map { math.tanh } ins(%h1 : tensor<4x64xf64>) outs(%e64 : tensor<4x64xf64>)
  %h2 = linalg.matmul ins(%a1, %w2 : tensor<4x64xf64>, tensor<64x64xf64>) outs(%z64 : tensor<4x64xf64>) -> tensor<4x64xf64>
  %a2 = linalg.map { math.tanh } ins(%h2 : tensor<4x64xf64>) outs(%e64 : tensor<4x64xf64>)
  %e16 = tensor.empty() : tensor<4x16xf64>
  %z16 = linalg.fill ins(%zero : f64) outs(%e16 : tensor<4x16xf64>) -> tensor<4x16xf64>
  %h3 = linalg.matmul ins(%a2, %w3 : tensor<4x64xf64>, tensor<64x16xf64>) outs(%z16 : tensor<4x16xf64>) -> tensor<4x16xf64>
  %a3 = linalg.map { math.tanh } ins(%h3 : tensor<4x16xf64>) outs(%e16 : tensor<4x16xf64>)
  %e8 = tensor.empty() : tensor<4x8xf64>
  %z8 = linalg.fill ins(%zero : f64) outs(%e8 : tensor<4x8xf64>) -> tensor<4x8xf64>
  %y = linalg.matmul ins(%a3, %w4 : tensor<4x16xf64>, tensor<16x8xf64>) outs(%z8 : tensor<4x8xf64>) -> tensor<4x8xf64>
  %d = linalg.sub ins(%y, %t : tensor<4x8xf64>, tensor<4x8xf64>) outs(%e8 : tensor<4x8xf64>) -> tensor<4x8xf64>
  %sq = linalg.mul ins(%d, %d : tensor<4x8xf64>, tensor<4x8xf64>) outs(%e8 : tensor<4x8xf64>) -> tensor<4x8xf64>
  %e0 = tensor.empty() : tensor<f64>
  %z0 = linalg.fill ins(%zero : f64) outs(%e0 : tensor<f64>) -> tensor<f64>
  %loss = linalg.reduce { arith.addf } ins(%sq : tensor<4x8xf64>) outs(%z0 : tensor<f64>) dimensions = [0, 1]
  return %loss : tensor<f64>
}
