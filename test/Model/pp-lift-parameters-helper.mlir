// RUN: pp-opt %s -verify-diagnostics -pp-lift-parameters="function=f min-elements=2" | FileCheck %s

// Weights inside a private helper are not lifted (the helper would need the
// parameters threaded through): a warning says so, once per helper.

// CHECK-LABEL: func.func @f(%{{.*}}: tensor<2xf32>, %{{.*}}: tensor<2xf32> {pp.parameter})
// CHECK-LABEL: func.func private @helper(
// CHECK:         arith.constant dense<[3.000000e+00, 4.000000e+00]>
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %w = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %y = arith.addf %x, %w : tensor<2xf32>
  %z = func.call @helper(%y) : (tensor<2xf32>) -> tensor<2xf32>
  %u = func.call @helper(%z) : (tensor<2xf32>) -> tensor<2xf32>
  return %u : tensor<2xf32>
}

func.func private @helper(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-warning @below {{constant 'tensor<2xf32>' in @helper (called by @f) is not lifted and stays fixed; inline the callee first (--inline) to train it}}
  %w = arith.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %y = arith.mulf %x, %w : tensor<2xf32>
  return %y : tensor<2xf32>
}
