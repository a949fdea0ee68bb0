// Option errors of pp-append-loss, reported at the module.
// RUN: not pp-opt %s -pp-append-loss="kind=mse" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUNCTION
// RUN: not pp-opt %s -pp-append-loss="function=f" -o /dev/null 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not pp-opt %s -pp-append-loss="function=f kind=hinge" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// FUNCTION: :[[@LINE+3]]:1: error: option 'function' is required
// KIND: :[[@LINE+2]]:1: error: option 'kind' is required: mse or cross-entropy
// UNKNOWN: :[[@LINE+1]]:1: error: unknown kind 'hinge': expected mse or cross-entropy
module {
  func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
    return %x : tensor<2x3xf32>
  }
}
