// RUN: pp-opt %s -verify-diagnostics -pp-check-differentiable="function=f" -o /dev/null

// expected-error @below {{@f is a declaration; it has no body to check}}
func.func private @f(tensor<4xf32>) -> tensor<4xf32>
