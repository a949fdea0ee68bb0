// RUN: pp-opt %s -verify-diagnostics -pp-lift-parameters="function=f min-elements=2" -o /dev/null

// expected-error @below {{a symbol named @f_init already exists; choose the initializer's name with option 'initializer'}}
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %w = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %y = arith.addf %x, %w : tensor<2xf32>
  return %y : tensor<2xf32>
}

func.func @f_init() {
  return
}
