// RUN: pp-opt %s -verify-diagnostics -pp-append-loss="function=f kind=hinge" -o /dev/null

// expected-error @below {{unknown kind 'hinge': expected mse or cross-entropy}}
module {
  func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
    return %x : tensor<2x3xf32>
  }
}
