// RUN: pp-opt %S/../../integration_test/pp-run/Inputs/plan-mlp.mlir --pp-partition="function=mlp4 num-stages=2" --pp-differentiate-stages="recompute=none" | FileCheck %s --check-prefix=NONE
// RUN: pp-opt %S/../../integration_test/pp-run/Inputs/plan-mlp.mlir --pp-partition="function=mlp4 num-stages=2" --pp-differentiate-stages="recompute=selective" | FileCheck %s --check-prefix=SELECTIVE
// RUN: pp-opt %S/../../integration_test/pp-run/Inputs/plan-mlp.mlir --pp-partition="function=mlp4 num-stages=2" --pp-differentiate-stages="recompute=full" | FileCheck %s --check-prefix=FULL
// RUN: not pp-opt %S/../../integration_test/pp-run/Inputs/plan-mlp.mlir --pp-partition="function=mlp4 num-stages=2" --pp-differentiate-stages="recompute=some" 2>&1 | FileCheck %s --check-prefix=BAD

// Activation recomputation: the four-layer MLP of plan-mlp.mlir in two
// stages. Without it, F stashes what the backward reads (stage 0: 2304
// bytes per micro-batch). "selective" keeps the GEMM outputs and recomputes
// the tanh layers from them (1280 bytes); "full" keeps only the stage's
// inputs (stage 0: x, 256 bytes; stage 1: its activation and the target,
// 1152 bytes), and the backward recomputes the forward: B + W grow by about
// F, once (not once in B and again in W).
// Under "full" the forward returns its outputs, then only its inputs as
// the stash.
// FULL-LABEL: func.func @mlp4_stage1_forward(%arg0: tensor<4x8xf32>, %arg1: tensor<4x64xf32>,
// FULL-SAME: -> (tensor<f32>, tensor<4x64xf32> {pp.stash}, tensor<4x8xf32> {pp.stash})
// FULL: return %{{.*}}, %arg1, %arg0 :

// NONE: pp.stage 0 {{.*}}costs(forward = 4.1472, backward_input = 0, backward_weight = 8.0384) memory(stash = 2304, weight_stash = 2304)
// NONE: pp.stage 1 {{.*}}costs(forward = 0.9729, backward_input = 1.1296, backward_weight = 1.0368) memory(stash = 2688, weight_stash = 1664)
// SELECTIVE: pp.stage 0 {{.*}}costs(forward = 4.1472, backward_input = 0, backward_weight = 8.064) memory(stash = 1280, weight_stash = 1280)
// SELECTIVE: pp.stage 1 {{.*}}costs(forward = 0.9729, backward_input = 1.1328, backward_weight = 1.0688) memory(stash = 1536, weight_stash = 1664)
// FULL: pp.stage 0 {{.*}}costs(forward = 4.1472, backward_input = 0, backward_weight = 8.9088) memory(stash = 256, weight_stash = 256)
// FULL: pp.stage 1 {{.*}}costs(forward = 0.9729, backward_input = 2.096, backward_weight = 1.0368) memory(stash = 1152, weight_stash = 1664)

// BAD: error: option 'recompute' must be none, full, selective or selective:N with N >= 0 FLOPs per output element (or one of them per stage, comma-separated), not 'some'

// selective:N also recomputes the contractions of at most N FLOPs per
// output element: the first and the last layer (16 inputs each: 32 FLOPs
// per element), not the middle two (64 inputs: 128): stage 0 keeps only its input, as under full; stage 1 keeps 1408 bytes,
// between selective's 1536 and full's 1152. N below every contraction's
// is selective; a negative N is an error.
// RUN: pp-opt %S/../../integration_test/pp-run/Inputs/plan-mlp.mlir --pp-partition="function=mlp4 num-stages=2" --pp-differentiate-stages="recompute=selective:32" | FileCheck %s --check-prefix=THRESHOLD
// THRESHOLD: pp.stage 0 {{.*}}memory(stash = 256, weight_stash = 256)
// THRESHOLD: pp.stage 1 {{.*}}memory(stash = 1408, weight_stash = 1664)
// RUN: pp-opt %S/../../integration_test/pp-run/Inputs/plan-mlp.mlir --pp-partition="function=mlp4 num-stages=2" --pp-differentiate-stages="recompute=selective:1" | FileCheck %s --check-prefix=SELECTIVE
// RUN: not pp-opt %S/../../integration_test/pp-run/Inputs/plan-mlp.mlir --pp-partition="function=mlp4 num-stages=2" --pp-differentiate-stages="recompute=selective:-1" 2>&1 | FileCheck %s --check-prefix=BADN
// BADN: error: option 'recompute' must be {{.*}}, not 'selective:-1'

// One choice per stage: full on stage 0, none on stage 1; a list of
// another length is an error.
// RUN: pp-opt %S/../../integration_test/pp-run/Inputs/plan-mlp.mlir --pp-partition="function=mlp4 num-stages=2" --pp-differentiate-stages="recompute=full,none" | FileCheck %s --check-prefix=PER-STAGE
// PER-STAGE: pp.stage 0 {{.*}}memory(stash = 256, weight_stash = 256)
// PER-STAGE: pp.stage 1 {{.*}}memory(stash = 2688, weight_stash = 1664)
// RUN: not pp-opt %S/../../integration_test/pp-run/Inputs/plan-mlp.mlir --pp-partition="function=mlp4 num-stages=2" --pp-differentiate-stages="recompute=full,none,none" 2>&1 | FileCheck %s --check-prefix=LENGTH
// LENGTH: error: option 'recompute' names 3 choices, but the pipeline has 2 stages
