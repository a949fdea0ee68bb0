// The project's own example model (written here, not copied): a three-layer
// perceptron with a mean-squared-error loss, cut into three stages by
// pp.split_point markers: tanh(x W1 + b1), tanh(. W2), . W3, then the loss
// against the target t. Parameters: %w1, %b1, %w2, %w3. Train it with
//   pp-run examples/tanh-mlp3.mlir --function=mlp --ranks=3 --microbatches=4 \
//     --schedule=zb-h1 --steps=5 --check
func.func @mlp(%x: tensor<2x4xf32>, %t: tensor<2x3xf32>,
               %w1: tensor<4x8xf32> {pp.parameter}, %b1: tensor<8xf32> {pp.parameter},
               %w2: tensor<8x8xf32> {pp.parameter}, %w3: tensor<8x3xf32> {pp.parameter}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<2x8xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %h1 = linalg.matmul ins(%x, %w1 : tensor<2x4xf32>, tensor<4x8xf32>) outs(%z8 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %bb = linalg.broadcast ins(%b1 : tensor<8xf32>) outs(%e8 : tensor<2x8xf32>) dimensions = [0]
  %s1 = linalg.add ins(%h1, %bb : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e8 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %a1 = linalg.map { math.tanh } ins(%s1 : tensor<2x8xf32>) outs(%e8 : tensor<2x8xf32>) {pp.split_point}
  %h2 = linalg.matmul ins(%a1, %w2 : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z8 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %a2 = linalg.map { math.tanh } ins(%h2 : tensor<2x8xf32>) outs(%e8 : tensor<2x8xf32>) {pp.split_point}
  %e3 = tensor.empty() : tensor<2x3xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %y = linalg.matmul ins(%a2, %w3 : tensor<2x8xf32>, tensor<8x3xf32>) outs(%z3 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %d = linalg.sub ins(%y, %t : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e3 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %sq = linalg.mul ins(%d, %d : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e3 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.reduce { arith.addf } ins(%sq : tensor<2x3xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1]
  return %loss : tensor<f32>
}
