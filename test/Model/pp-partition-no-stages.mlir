// RUN: pp-opt %s -verify-diagnostics -pp-partition="function=f" -o /dev/null

// expected-error @below {{option 'num-stages' is required and must be at least 1 (or mark cuts with pp.split_point)}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
