// RUN: pp-opt %s -verify-diagnostics -pp-autodiff -o /dev/null

// expected-error @below {{pp-autodiff: option 'function' is required (the loss function to differentiate)}}
module {
  func.func @f(%x: tensor<f32>) -> tensor<f32> {
    return %x : tensor<f32>
  }
}
