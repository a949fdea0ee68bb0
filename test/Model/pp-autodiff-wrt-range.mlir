// RUN: pp-opt %s -verify-diagnostics -pp-autodiff="function=f wrt=0,2" -o /dev/null

// expected-error @below {{'wrt' names argument 2, but '@f' has 2 arguments}}
func.func @f(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
