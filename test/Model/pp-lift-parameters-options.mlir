// Option errors of pp-lift-parameters.
// RUN: not pp-opt %s -split-input-file -pp-lift-parameters -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not pp-opt %s -split-input-file -pp-lift-parameters="function=g" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-FUNCTION
// RUN: not pp-opt %s -split-input-file -pp-lift-parameters="function=f min-elements=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MIN-ELEMENTS
// RUN: not pp-opt %s -split-input-file -pp-lift-parameters="function=f data=0,2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DATA-RANGE
// RUN: not pp-opt %s -split-input-file -pp-lift-parameters="function=f parameters=1 data=0,1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BOTH

// MISSING: :[[@LINE+3]]:1: error: option 'function' is required
// NO-FUNCTION: :[[@LINE+2]]:1: error: no function named @g
// MIN-ELEMENTS: :[[@LINE+1]]:1: error: option 'min-elements' must be at least 1, got 0
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// -----

// DATA-RANGE: :[[@LINE+2]]:1: error: argument 2 in option 'data' is out of range: @f has 2 arguments
// BOTH: :[[@LINE+1]]:1: error: argument 1 is listed both in 'parameters' and in 'data'
func.func @f(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
