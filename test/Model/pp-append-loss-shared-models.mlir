// REQUIRES: shared-models
// Losses on the two third-party models (../shared/models/SOURCES.md); the
// loss functions stay differentiable.

// MNIST MLP: logits tensor<1x10xf32>, cross-entropy against a label.
// RUN: pp-opt %shared_models/google_heir__mnist_mlp.mlir -pp-lift-parameters="function=mnist parameters=0,1,2,3 data=4" -pp-append-loss="function=mnist kind=cross-entropy" -o %t.mnist.mlir
// RUN: FileCheck %s --input-file=%t.mnist.mlir --check-prefix=MNIST
// RUN: pp-opt %t.mnist.mlir -pp-check-differentiable="function=mnist_loss" -o /dev/null
// MNIST-LABEL: func.func public @mnist(
// MNIST-SAME:    -> (tensor<1x10xf32> {jax.result_info = "result[0]"})
// MNIST-LABEL: func.func public @mnist_loss(
// MNIST-SAME:    %arg4: tensor<1x784xf32> {pp.data, secret.secret}, %arg5: tensor<1xi32> {pp.data}) -> tensor<f32>
// MNIST-SAME:    attributes {pp.loss = "cross-entropy"}
// MNIST:         call @relu(
// MNIST:         math.exp
// MNIST:         math.log
// MNIST:         return %{{.*}} : tensor<f32>

// The decoder layer: hidden states tensor<1x40x1536xf32>, mean squared error.
// RUN: pp-opt %shared_models/buddy-mlir__transformer_layer_tosa.mlir \
// RUN:   --pass-pipeline="builtin.module(pp-strip-instrumentation,func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,pp-append-loss{function=subgraph0 kind=mse})" 2>/dev/null -o %t.layer.mlir
// RUN: FileCheck %s --input-file=%t.layer.mlir --check-prefix=LAYER
// RUN: pp-opt %t.layer.mlir -pp-check-differentiable="function=subgraph0_loss" -o /dev/null
// LAYER-LABEL: func.func @subgraph0_loss(
// LAYER-SAME:    %arg13: tensor<1x40x1536xf32> {pp.data}) -> tensor<f32> attributes {pp.loss = "mse"}
// LAYER:         arith.constant 6.144000e+04 : f32
// LAYER:         return %{{.*}} : tensor<f32>
