// RUN: pp-opt %s -verify-diagnostics -pp-autodiff="function=f wrt=1,0,1" -o /dev/null

// expected-error @below {{'wrt' names argument 1 twice}}
func.func @f(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
