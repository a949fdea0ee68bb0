// RUN: pp-opt %s -split-input-file -verify-diagnostics -pp-partition="function=f num-stages=3" -o /dev/null

// Two ops that do work allow at most two stages.
// expected-error @below {{cannot cut @f into 3 stages: it has only 2 ops that do work, so at most 2 stages (1 cuts)}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.map { math.exp } ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>)
  %b = linalg.map { math.exp } ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>)
  return %b : tensor<4xf32>
}

// -----

// expected-error @below {{the function has 1 pp.split_point markers (2 stages), but num-stages is 3}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.map { math.exp } ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {pp.split_point}
  %b = linalg.map { math.exp } ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>)
  %c = linalg.map { math.exp } ins(%b : tensor<4xf32>) outs(%e : tensor<4xf32>)
  return %c : tensor<4xf32>
}

// -----

// expected-error @below {{the model function must have one block}}
func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32>
