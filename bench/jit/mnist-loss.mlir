// The end of a module (bench/jit.sh appends it to the shared MNIST MLP
// without its closing brace): a loss whose gradient (pp-autodiff) is the
// MLP's forward and backward pass, as in
// integration_test/Model/pp-autodiff-gradcheck-mnist.mlir.
  func.func @loss(%w1: tensor<512x784xf32>, %b1: tensor<512xf32>, %w2: tensor<10x512xf32>, %b2: tensor<10xf32>, %x: tensor<1x784xf32>) -> tensor<f32> {
    %logits = call @mnist(%w1, %b1, %w2, %b2, %x) : (tensor<512x784xf32>, tensor<512xf32>, tensor<10x512xf32>, tensor<10xf32>, tensor<1x784xf32>) -> tensor<1x10xf32>
    %sq = arith.mulf %logits, %logits : tensor<1x10xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<f32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
    %sum = linalg.reduce { arith.addf } ins(%sq : tensor<1x10xf32>) outs(%init : tensor<f32>) dimensions = [0, 1]
    return %sum : tensor<f32>
  }
}
