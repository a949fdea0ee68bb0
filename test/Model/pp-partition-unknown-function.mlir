// RUN: pp-opt %s -verify-diagnostics -pp-partition="function=nope num-stages=2" -o /dev/null

// expected-error @below {{no function named @nope}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
