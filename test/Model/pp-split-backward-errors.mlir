// RUN: pp-opt %s -split-input-file -verify-diagnostics -pp-split-backward="function=f input-gradients=2" -o /dev/null

// expected-error @below {{@f returns 1 gradients, fewer than the 2 input gradients asked for}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// expected-error @below {{@f must have a body of one block}}
func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32>
