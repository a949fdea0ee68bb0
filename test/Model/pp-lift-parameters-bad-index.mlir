// RUN: pp-opt %s -verify-diagnostics -pp-lift-parameters="function=f data=0,2" -o /dev/null

// expected-error @below {{argument 2 in option 'data' is out of range: @f has 2 arguments}}
func.func @f(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
