// RUN: pp-opt %s -verify-diagnostics -pp-autodiff -o /dev/null

// expected-error @below {{option 'function' is required}}
module {
  func.func @f(%x: tensor<f32>) -> tensor<f32> {
    return %x : tensor<f32>
  }
}
