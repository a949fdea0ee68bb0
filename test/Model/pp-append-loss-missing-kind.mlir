// RUN: pp-opt %s -verify-diagnostics -pp-append-loss="function=f" -o /dev/null

// expected-error @below {{option 'kind' is required: mse or cross-entropy}}
module {
  func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
    return %x : tensor<2x3xf32>
  }
}
