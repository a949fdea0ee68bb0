// RUN: pp-opt %s -verify-diagnostics -pp-lift-parameters="function=g" -o /dev/null

// expected-error @below {{no function named @g}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
