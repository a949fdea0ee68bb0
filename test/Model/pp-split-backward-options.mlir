// Option errors of pp-split-backward, reported at the module.
// RUN: not pp-opt %s -pp-split-backward="input-gradients=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not pp-opt %s -pp-split-backward="function=f input-gradients=-1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not pp-opt %s -pp-split-backward="function=nope" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// MISSING: :[[@LINE+3]]:1: error: option 'function' is required
// NEGATIVE: :[[@LINE+2]]:1: error: option 'input-gradients' must be >= 0
// UNKNOWN: :[[@LINE+1]]:1: error: no function named @nope
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
