// RUN: pp-opt %s --pp-round-to-bf16 --split-input-file --verify-diagnostics

// Only f32 contractions can take bf16 inputs.
func.func @f64(%x: tensor<4x8xf64>, %w: tensor<8x16xf64>, %z: tensor<4x16xf64>) -> tensor<4x16xf64> {
  // expected-error @below {{pp-round-to-bf16: this contraction computes in 'f64': only f32 contractions can take bf16 inputs (with f32 accumulation)}}
  %y = linalg.matmul ins(%x, %w : tensor<4x8xf64>, tensor<8x16xf64>) outs(%z : tensor<4x16xf64>) -> tensor<4x16xf64>
  return %y : tensor<4x16xf64>
}

// -----

func.func @integers(%x: tensor<4x8xi32>, %w: tensor<8x16xi32>, %z: tensor<4x16xi32>) -> tensor<4x16xi32> {
  // expected-error @below {{pp-round-to-bf16: this contraction computes in 'i32'}}
  %y = linalg.matmul ins(%x, %w : tensor<4x8xi32>, tensor<8x16xi32>) outs(%z : tensor<4x16xi32>) -> tensor<4x16xi32>
  return %y : tensor<4x16xi32>
}
