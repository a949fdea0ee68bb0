// RUN: pp-opt %s -verify-diagnostics -pp-lift-parameters="function=f parameters=1 data=0,1" -o /dev/null

// expected-error @below {{argument 1 is listed both in 'parameters' and in 'data'}}
func.func @f(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
