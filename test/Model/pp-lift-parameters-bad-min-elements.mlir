// RUN: pp-opt %s -verify-diagnostics -pp-lift-parameters="function=f min-elements=0" -o /dev/null

// expected-error @below {{option 'min-elements' must be at least 1, got 0}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
