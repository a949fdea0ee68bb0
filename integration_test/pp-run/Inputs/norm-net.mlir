// A normalization layer with its statistics as parameters (as a JAX ResNet
// exports batch norm): (x - mean) * rsqrt(var + eps) * gamma + beta, then a
// linear layer (weight W, 4 x 3 in x.W layout) and an MSE loss. A variance
// drawn from [-1, 1) makes rsqrt NaN; pp-run's initial values follow the
// usual rules: mean 0, var 1, gamma 1, beta 0, W uniform with fan-in 4.
// The last function takes sqrt of a parameter: fine from the default
// initial value 1, NaN from a negative one loaded with --initial-parameters.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @norm(%x: tensor<2x4xf32>, %t: tensor<2x3xf32>,
                %mean: tensor<4xf32> {pp.parameter}, %var: tensor<4xf32> {pp.parameter},
                %gamma: tensor<4xf32> {pp.parameter}, %beta: tensor<4xf32> {pp.parameter},
                %w: tensor<4x3xf32> {pp.parameter}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e4 = tensor.empty() : tensor<2x4xf32>
  %n = linalg.generic {indexing_maps = [#id, #row, #row, #row, #row, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %var, %gamma, %beta : tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
      outs(%e4 : tensor<2x4xf32>) {
  ^bb0(%xv: f32, %m: f32, %v: f32, %g: f32, %b: f32, %o: f32):
    %c = arith.subf %xv, %m : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %s = arith.mulf %c, %r : f32
    %sg = arith.mulf %s, %g : f32
    %y = arith.addf %sg, %b : f32
    linalg.yield %y : f32
  } -> tensor<2x4xf32>
  %e3 = tensor.empty() : tensor<2x3xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %y = linalg.matmul ins(%n, %w : tensor<2x4xf32>, tensor<4x3xf32>) outs(%z3 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %d = linalg.sub ins(%y, %t : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e3 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %sq = linalg.mul ins(%d, %d : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e3 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%sq : tensor<2x3xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1]
  return %l : tensor<f32>
}

func.func @root(%x: tensor<2x4xf32>, %t: tensor<2x3xf32>,
                %s: tensor<4xf32> {pp.parameter}, %w: tensor<4x3xf32> {pp.parameter}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<2x4xf32>
  %sb = linalg.broadcast ins(%s : tensor<4xf32>) outs(%e4 : tensor<2x4xf32>) dimensions = [0]
  %r = linalg.sqrt ins(%sb : tensor<2x4xf32>) outs(%e4 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %h = linalg.mul ins(%x, %r : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e4 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %e3 = tensor.empty() : tensor<2x3xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %y = linalg.matmul ins(%h, %w : tensor<2x4xf32>, tensor<4x3xf32>) outs(%z3 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %d = linalg.sub ins(%y, %t : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e3 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %sq = linalg.mul ins(%d, %d : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e3 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce { arith.addf } ins(%sq : tensor<2x3xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1]
  return %l : tensor<f32>
}
