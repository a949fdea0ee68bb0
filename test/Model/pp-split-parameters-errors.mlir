// RUN: pp-opt %s -split-input-file -verify-diagnostics -pp-split-parameters="function=f" -o /dev/null
// RUN: not pp-opt %s -split-input-file -pp-split-parameters -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-FUNCTION
// RUN: not pp-opt %s -split-input-file -pp-split-parameters="function=g" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// NO-FUNCTION: error: option 'function' is required
// UNKNOWN: error: no function named @g

// expected-error @below {{pp-split-parameters needs a function with a body}}
func.func private @f(%w: tensor<4xf32> {pp.parameter}) -> tensor<4xf32>

// -----

// Splitting %w would change the signature of a function that is called.
// expected-error @below {{pp-split-parameters changes the signature of @f, which is called}}
func.func @f(%w: tensor<4xf32> {pp.parameter}) -> (tensor<2xf32>, tensor<2xf32>) {
  %a = tensor.extract_slice %w[0] [2] [1] : tensor<4xf32> to tensor<2xf32>
  %b = tensor.extract_slice %w[2] [2] [1] : tensor<4xf32> to tensor<2xf32>
  return %a, %b : tensor<2xf32>, tensor<2xf32>
}
func.func @g(%w: tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %r:2 = func.call @f(%w) : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xf32>
}
