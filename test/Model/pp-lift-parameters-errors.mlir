// RUN: pp-opt %s -split-input-file -verify-diagnostics -pp-lift-parameters="function=f min-elements=2" -o /dev/null

// Only func.call sites can be given the new arguments; nothing is changed.

// expected-note @below {{function defined here}}
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %w = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %y = arith.addf %x, %w : tensor<2xf32>
  return %y : tensor<2xf32>
}

func.func @g() -> ((tensor<2xf32>) -> tensor<2xf32>) {
  // expected-error @below {{cannot pass the lifted parameters of @f at this use by 'func.constant': only func.call sites are updated}}
  %f = func.constant @f : (tensor<2xf32>) -> tensor<2xf32>
  return %f : (tensor<2xf32>) -> tensor<2xf32>
}

// -----

// expected-error @below {{a symbol named @f_init already exists; choose the initializer's name with option 'initializer'}}
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %w = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %y = arith.addf %x, %w : tensor<2xf32>
  return %y : tensor<2xf32>
}

func.func @f_init() {
  return
}

// -----

// expected-error @below {{@f is a declaration; it has no body to lift from}}
func.func private @f(tensor<4xf32>) -> tensor<4xf32>
