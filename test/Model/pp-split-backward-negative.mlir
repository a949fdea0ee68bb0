// RUN: pp-opt %s -verify-diagnostics -pp-split-backward="function=f input-gradients=-1" -o /dev/null

// expected-error @below {{option 'input-gradients' must be >= 0}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
