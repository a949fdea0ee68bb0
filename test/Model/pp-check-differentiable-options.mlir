// Errors of pp-check-differentiable about the function named by 'function'.
// RUN: not pp-opt %s -split-input-file -pp-check-differentiable="function=f" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DECLARATION
// RUN: not pp-opt %s -split-input-file -pp-check-differentiable="function=g" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-FUNCTION

// DECLARATION: :[[@LINE+1]]:1: error: @f is a declaration; it has no body to check
func.func private @f(tensor<4xf32>) -> tensor<4xf32>

// -----

// NO-FUNCTION: :[[@LINE+1]]:1: error: no function named @g
module {
  func.func @f() {
    return
  }
}
