// Errors of pp-autodiff that depend on its options: 'function' and 'wrt'.
// RUN: not pp-opt %s -split-input-file -pp-autodiff -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not pp-opt %s -split-input-file -pp-autodiff=function=loss -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-FUNCTION
// RUN: not pp-opt %s -split-input-file -pp-autodiff="function=f wrt=0,2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRT-RANGE
// RUN: not pp-opt %s -split-input-file -pp-autodiff="function=f wrt=1,0,1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRT-TWICE
// RUN: not pp-opt %s -split-input-file -pp-autodiff="function=f wrt=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRT-TYPE

// MISSING: :[[@LINE+2]]:1: error: option 'function' is required
// NO-FUNCTION: :[[@LINE+1]]:1: error: no function named @loss
module {
  func.func @f(%x: tensor<f32>) -> tensor<f32> {
    return %x : tensor<f32>
  }
}

// -----

// WRT-RANGE: :[[@LINE+2]]:1: error: 'wrt' names argument 2, but '@f' has 2 arguments
// WRT-TWICE: :[[@LINE+1]]:1: error: 'wrt' names argument 1 twice
func.func @f(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}

// -----

// WRT-TYPE: :[[@LINE+1]]:1: error: 'wrt' names argument 1 of type 'tensor<4xi32>', which is not a float or float tensor
func.func @f(%x: tensor<f32>, %labels: tensor<4xi32>) -> tensor<f32> {
  return %x : tensor<f32>
}
