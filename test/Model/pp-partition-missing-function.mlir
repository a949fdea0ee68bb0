// RUN: pp-opt %s -verify-diagnostics -pp-partition="num-stages=2" -o /dev/null

// expected-error @below {{option 'function' is required}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
