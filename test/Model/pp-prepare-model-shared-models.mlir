// pp-prepare-model on the third-party models of ../shared/models: no TOSA
// and no named linalg ops are left. The MNIST MLP's private @relu is
// inlined and erased; the transformer's timer calls stay (removing them is
// pp-strip-instrumentation's job, and pp-autodiff refuses them).
// REQUIRES: shared-models
// RUN: pp-opt %shared_models/google_heir__mnist_mlp.mlir -pp-prepare-model | FileCheck %s --check-prefix=MNIST
// RUN: pp-opt %shared_models/buddy-mlir__transformer_layer_tosa.mlir -pp-prepare-model | FileCheck %s --check-prefix=LAYER

// MNIST-NOT:   @relu
// MNIST-LABEL: func.func public @mnist(
// MNIST-NOT:     linalg.{{(matmul|transpose|broadcast|map|fill)}}
// MNIST-NOT:     call
// MNIST:         arith.maximumf
// MNIST-NOT:     linalg.{{(matmul|transpose|broadcast|map|fill)}}
// MNIST:         return
// MNIST-NOT:   func.func

// LAYER-LABEL: func.func @subgraph0(
// LAYER-NOT:     tosa.
// LAYER-NOT:     linalg.{{(matmul|batch_matmul|transpose|broadcast|map|fill|reduce)}}
// LAYER:         call @rtclock()
// LAYER-NOT:     tosa.
// LAYER-NOT:     linalg.{{(matmul|batch_matmul|transpose|broadcast|map|fill|reduce)}}
// LAYER:         return
