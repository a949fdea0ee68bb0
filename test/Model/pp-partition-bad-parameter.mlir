// RUN: pp-opt %s -verify-diagnostics -pp-partition="function=f num-stages=1 parameters=3" -o /dev/null

// expected-error @below {{parameter index 3 is out of range: @f has 1 arguments}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
