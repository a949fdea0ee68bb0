// Gradient check of the MNIST MLP of ../shared/models (784-512-10, ReLU in
// a private helper) with respect to all its arguments (both weights, both
// biases, the image), under the loss sum(logits * logits).
//
// This file is not a module by itself: it is the end of one. The RUN lines
// append it to the model's module (the model file without its closing
// brace), so that @loss can call @mnist; pp-prepare-model inlines the call.
//
// REQUIRES: shared-models
// RUN: sed '$d' %shared_models/google_heir__mnist_mlp.mlir | cat - %s > %t.in.mlir
// RUN: pp-opt %t.in.mlir --pp-prepare-model --pp-autodiff=function=loss -o %t.mlir
// The loss is large (~1e5) and f32 finite differences over 400k weights
// are noisy (~1% relative, the error of the finite difference itself, not
// of the gradient): in f32 the check allows 5%;
// RUN: pp-exec %t.mlir --check-gradients --entry=loss --gradient=loss_grad --tolerance=0.05 | FileCheck %s
// in f64 it is exact to pp-exec's default 1e-6.
// RUN: sed 's/f32/f64/g' %t.in.mlir | pp-opt --pp-prepare-model --pp-autodiff=function=loss -o %t.f64.mlir
// RUN: pp-exec %t.f64.mlir --check-gradients --entry=loss --gradient=loss_grad | FileCheck %s

// CHECK: gradient check of @loss against @loss_grad: 5 arguments
// CHECK: gradient check PASSED

  func.func @loss(%w1: tensor<512x784xf32>, %b1: tensor<512xf32>, %w2: tensor<10x512xf32>, %b2: tensor<10xf32>, %x: tensor<1x784xf32>) -> tensor<f32> {
    %logits = call @mnist(%w1, %b1, %w2, %b2, %x) : (tensor<512x784xf32>, tensor<512xf32>, tensor<10x512xf32>, tensor<10xf32>, tensor<1x784xf32>) -> tensor<1x10xf32>
    %sq = arith.mulf %logits, %logits : tensor<1x10xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<f32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
    %sum = linalg.reduce { arith.addf } ins(%sq : tensor<1x10xf32>) outs(%init : tensor<f32>) dimensions = [0, 1]
    return %sum : tensor<f32>
  }
}
