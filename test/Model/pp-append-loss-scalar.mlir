// RUN: pp-opt %s -split-input-file -verify-diagnostics -pp-append-loss="function=f kind=mse" | FileCheck %s

// A function that already returns a scalar is its own loss: a remark, and
// nothing is added.

// CHECK-NOT: @f_loss

// expected-remark @below {{@f already returns a scalar ('tensor<f32>'); taking it as the loss, no loss added}}
func.func @f(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}

// -----

// expected-remark @below {{@f already returns a scalar ('tensor<1xf32>'); taking it as the loss, no loss added}}
func.func @f(%x: tensor<1xf32>) -> tensor<1xf32> {
  return %x : tensor<1xf32>
}

// -----

// expected-remark @below {{@f already returns a scalar ('f32'); taking it as the loss, no loss added}}
func.func @f(%x: f32) -> f32 {
  return %x : f32
}
