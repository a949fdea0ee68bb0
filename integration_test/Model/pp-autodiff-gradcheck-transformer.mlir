// The decoder layer of ../shared/models (TOSA; RMSNorm, grouped-query
// attention with a causal mask and softmax, SwiGLU; timer calls), made
// differentiable: timers stripped, TOSA lowered, an MSE loss appended.
//
// REQUIRES: shared-models
//
// pp-autodiff refuses the timer calls until they are stripped:
// RUN: not pp-opt %shared_models/buddy-mlir__transformer_layer_tosa.mlir --pp-prepare-model --pp-append-loss="function=subgraph0 kind=mse" --pp-autodiff=function=subgraph0_loss 2>&1 | FileCheck %s --check-prefix=TIMERS
// TIMERS: error: cannot differentiate call to @rtclock: calls are not differentiated; inline private helper functions first (pp-prepare-model), and remove instrumentation such as timers and prints (pp-strip-instrumentation)
//
// Gradients with respect to every float argument (the 12 of the layer and
// the loss's target):
// RUN: pp-opt %shared_models/buddy-mlir__transformer_layer_tosa.mlir --pp-strip-instrumentation --pp-prepare-model --pp-append-loss="function=subgraph0 kind=mse" --pp-autodiff=function=subgraph0_loss 2>/dev/null | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @subgraph0_loss_grad(
// IR-SAME:    -> (tensor<f32>, tensor<1x40x1536xf32>, tensor<1x40x1536xf32>, tensor<1536xf32>, tensor<1536x1536xf32>, tensor<256x1536xf32>, tensor<256x1536xf32>, tensor<1536x1536xf32>, tensor<1x40x1536xf32>, tensor<1536xf32>, tensor<8960x1536xf32>, tensor<8960x1536xf32>, tensor<1536x8960xf32>, tensor<1x40x1536xf32>)
// IR-NOT:     call
// IR:         return
//
// A gradient check in f64 (in f32 the finite differences of a loss of
// ~4e7 are too noisy) of the weight of the first RMSNorm, whose gradient
// flows back through the whole layer; one random direction and one
// coordinate, as the layer is large (about a minute on one core).
// RUN: sed 's/f32/f64/g' %shared_models/buddy-mlir__transformer_layer_tosa.mlir | pp-opt --pp-strip-instrumentation --pp-prepare-model --pp-append-loss="function=subgraph0 kind=mse" --pp-autodiff="function=subgraph0_loss wrt=2" -o %t.mlir 2>/dev/null
// RUN: pp-exec %t.mlir --check-gradients --entry=subgraph0_loss --gradient=subgraph0_loss_grad --wrt=2 --directions=1 --coordinates=1 --tolerance=1e-5 | FileCheck %s
// CHECK: argument 2 (tensor<1536xf64>): max relative error
// CHECK: gradient check PASSED
