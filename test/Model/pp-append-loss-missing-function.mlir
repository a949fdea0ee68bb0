// RUN: pp-opt %s -verify-diagnostics -pp-append-loss="kind=mse" -o /dev/null

// expected-error @below {{option 'function' is required}}
module {
  func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
    return %x : tensor<2x3xf32>
  }
}
