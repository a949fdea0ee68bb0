// RUN: pp-opt %s -verify-diagnostics -pp-lift-parameters="function=f" -o /dev/null

// expected-error @below {{@f is a declaration; it has no body to lift from}}
func.func private @f(tensor<4xf32>) -> tensor<4xf32>
