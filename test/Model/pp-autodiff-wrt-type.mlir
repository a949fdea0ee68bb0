// RUN: pp-opt %s -verify-diagnostics -pp-autodiff="function=f wrt=1" -o /dev/null

// expected-error @below {{'wrt' names argument 1 of type 'tensor<4xi32>', which is not a float or float tensor}}
func.func @f(%x: tensor<f32>, %labels: tensor<4xi32>) -> tensor<f32> {
  return %x : tensor<f32>
}
