// REQUIRES: shared-models
// The two third-party models (../shared/models/SOURCES.md) take their
// weights as arguments: pp-lift-parameters marks them.

// MNIST MLP: the weights and biases are parameters, the image is data.
// RUN: pp-opt %shared_models/google_heir__mnist_mlp.mlir -pp-lift-parameters="function=mnist parameters=0,1,2,3 data=4" | FileCheck %s --check-prefix=MNIST
// MNIST-LABEL: func.func public @mnist(
// MNIST-SAME:    %arg0: tensor<512x784xf32> {mhlo.sharding = "{replicated}", pp.parameter},
// MNIST-SAME:    %arg1: tensor<512xf32> {mhlo.sharding = "{replicated}", pp.parameter},
// MNIST-SAME:    %arg2: tensor<10x512xf32> {mhlo.sharding = "{replicated}", pp.parameter},
// MNIST-SAME:    %arg3: tensor<10xf32> {mhlo.sharding = "{replicated}", pp.parameter},
// MNIST-SAME:    %arg4: tensor<1x784xf32> {pp.data, secret.secret})
// MNIST-NOT:   @mnist_init

// The decoder layer, lowered from TOSA: its large constants are splat
// accumulators of the matmuls (zeros of 40x1536, 40x8960, ...), not weights,
// so nothing is lifted by default; include-splats would lift them.
// RUN: pp-opt %shared_models/buddy-mlir__transformer_layer_tosa.mlir \
// RUN:   --pass-pipeline="builtin.module(pp-strip-instrumentation,func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),pp-lift-parameters{function=subgraph0})" 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=LAYER
// LAYER-NOT:   pp.parameter
// LAYER-LABEL: func.func @subgraph0(
// LAYER:         arith.constant dense<0.000000e+00> : tensor<40x8960xf32>
// LAYER-NOT:   pp.parameter
// LAYER-NOT:   @subgraph0_init
