// Option errors of pp-partition.
// RUN: not pp-opt %s -pp-partition="num-stages=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not pp-opt %s -pp-partition="function=f" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-STAGES
// RUN: not pp-opt %s -pp-partition="function=nope num-stages=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not pp-opt %s -pp-partition="function=f num-stages=1 parameters=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARAMETER

// MISSING: :[[@LINE+3]]:1: error: option 'function' is required
// NO-STAGES: :[[@LINE+2]]:1: error: option 'num-stages' is required and must be at least 1 (or mark cuts with pp.split_point)
// UNKNOWN: :[[@LINE+1]]:1: error: no function named @nope
module {
  // PARAMETER: :[[@LINE+1]]:3: error: parameter index 3 is out of range: @f has 1 arguments
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
