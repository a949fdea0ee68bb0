// RUN: pp-opt %s -verify-diagnostics -pp-autodiff=function=loss -o /dev/null

// expected-error @below {{no function named @loss}}
module {
  func.func @f(%x: tensor<f32>) -> tensor<f32> {
    return %x : tensor<f32>
  }
}
