// pp-differentiate-stages on a three-stage perceptron (examples/tanh-mlp3.mlir):
// every stage gets F (outputs, then the activation stash), B and W; the
// stages' costs and memory come from those functions.
// RUN: pp-opt %examples/tanh-mlp3.mlir -pp-partition=function=mlp -pp-differentiate-stages -o %t.mlir 2>/dev/null
// RUN: FileCheck %s --input-file=%t.mlir
//
// The staged gradient (F of every stage, then B and W in reverse) is bit for
// bit pp-autodiff's gradient of the whole model, and passes a finite-
// difference check; B then W is bit for bit each stage's fused backward.
// RUN: pp-opt %t.mlir -pp-autodiff="function=mlp wrt=2,3,4,5" -o %t.grad.mlir
// RUN: pp-exec %t.grad.mlir --entry=mlp_grad --compare=mlp_staged_grad | FileCheck %s --check-prefix=EQUAL
// RUN: pp-exec %t.grad.mlir --entry=mlp --check-gradients --gradient=mlp_staged_grad --wrt=2,3,4,5 | FileCheck %s --check-prefix=GRADCHECK
// RUN: pp-exec %t.grad.mlir --entry=mlp_stage0_backward --compare=mlp_stage0_backward_split | FileCheck %s --check-prefix=EQUAL
// RUN: pp-exec %t.grad.mlir --entry=mlp_stage1_backward --compare=mlp_stage1_backward_split | FileCheck %s --check-prefix=EQUAL
// RUN: pp-exec %t.grad.mlir --entry=mlp_stage2_backward --compare=mlp_stage2_backward_split | FileCheck %s --check-prefix=EQUAL
//
// Without the split, stages name the fused backward.
// RUN: pp-opt %examples/tanh-mlp3.mlir -pp-partition=function=mlp -pp-differentiate-stages=split-backward=false 2>/dev/null | FileCheck %s --check-prefix=FUSED
//
// Then the pipeline schedules like any other (ZB-H1 uses B and W).
// RUN: pp-opt %t.mlir -pp-schedule="schedule=zb-h1 num-microbatches=4" -pp-verify-schedule -o /dev/null

// EQUAL: compare: results bitwise equal
// GRADCHECK: gradient check PASSED

// Stage 0: the data x and the target t come in; t only passes through (no
// gradient); x is stashed for W1's gradient. No input gradient: B is empty.
// CHECK-LABEL: func.func @mlp_stage0_forward(
// CHECK-SAME:    %[[X:.+]]: tensor<2x4xf32>, %[[T:.+]]: tensor<2x3xf32>, %{{.+}}: tensor<4x8xf32> {pp.parameter}, %{{.+}}: tensor<8xf32> {pp.parameter})
// CHECK-SAME:    -> (tensor<2x3xf32>, tensor<2x8xf32>, tensor<2x8xf32> {pp.stash}, tensor<2x4xf32> {pp.stash})
// CHECK:         math.tanh
// CHECK:         return %[[T]], %{{.+}}, %{{.+}}, %[[X]] :
// CHECK-LABEL: func.func @mlp_stage0_backward(
// CHECK-SAME:    tensor<4x8xf32> {pp.parameter}, %{{.+}}: tensor<8xf32> {pp.parameter}, %{{.+}}: tensor<2x8xf32> {pp.stash}, %{{.+}}: tensor<2x4xf32> {pp.stash}, %{{.+}}: tensor<2x8xf32> {pp.gradient})
// CHECK-SAME:    -> (tensor<4x8xf32>, tensor<8xf32>)
// CHECK-LABEL: func.func @mlp_stage0_backward_input(
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @mlp_stage0_backward_weight(
// CHECK-SAME:    -> (tensor<4x8xf32>, tensor<8xf32>) attributes {pp.weight_arguments = array<i64: 2, 4, 3>}

// Stage 1: the input activation takes a gradient (B returns it first), the
// target still does not; W needs the stashed input and one value of B.
// CHECK-LABEL: func.func @mlp_stage1_forward(
// CHECK-SAME:    -> (tensor<2x3xf32>, tensor<2x8xf32>, tensor<2x8xf32> {pp.stash}, tensor<2x8xf32> {pp.stash})
// CHECK-LABEL: func.func @mlp_stage1_backward(
// CHECK-SAME:    %{{.+}}: tensor<8x8xf32> {pp.parameter}, %{{.+}}: tensor<2x8xf32> {pp.stash}, %{{.+}}: tensor<2x8xf32> {pp.stash}, %{{.+}}: tensor<2x8xf32> {pp.gradient})
// CHECK-SAME:    -> (tensor<2x8xf32>, tensor<8x8xf32>)
// CHECK-LABEL: func.func @mlp_stage1_backward_input(
// CHECK-SAME:    -> (tensor<2x8xf32>, tensor<2x8xf32>)
// CHECK-LABEL: func.func @mlp_stage1_backward_weight(
// CHECK-SAME:    %{{.+}}: tensor<2x8xf32>, %{{.+}}: tensor<2x8xf32>) -> tensor<8x8xf32> attributes {pp.weight_arguments = array<i64: 2>}

// Stage 2 ends in the loss; its gradient (1 for one micro-batch) is an
// argument like any other output gradient.
// CHECK-LABEL: func.func @mlp_stage2_forward(
// CHECK-SAME:    -> (tensor<f32>, tensor<2x3xf32> {pp.stash}, tensor<2x8xf32> {pp.stash})
// CHECK-LABEL: func.func @mlp_stage2_backward(
// CHECK-SAME:    %{{.+}}: tensor<f32> {pp.gradient}) -> (tensor<2x8xf32>, tensor<8x3xf32>)

// CHECK-LABEL: func.func @mlp_staged_grad(
// CHECK-SAME:    -> (tensor<f32>, tensor<4x8xf32>, tensor<8xf32>, tensor<8x8xf32>, tensor<8x3xf32>)
// CHECK:         call @mlp_stage0_forward(
// CHECK:         call @mlp_stage1_forward(
// CHECK:         call @mlp_stage2_forward(
// CHECK:         arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK:         call @mlp_stage2_backward_input(
// CHECK:         call @mlp_stage2_backward_weight(
// CHECK:         call @mlp_stage1_backward_input(
// CHECK:         call @mlp_stage1_backward_weight(
// CHECK:         call @mlp_stage0_backward_input(
// CHECK:         call @mlp_stage0_backward_weight(

// Costs are FLOPs / 1e4 FLOP per us; memory the bytes of F's stash and of
// B's weight stash.
// CHECK:       pp.pipeline @mlp_pipeline ranks(3) activation_bytes(88) {
// CHECK-NEXT:    pp.stage 0 on rank 0 forward @mlp_stage0_forward backward_input @mlp_stage0_backward_input backward_weight @mlp_stage0_backward_weight costs(forward = 0.0192, backward_input = 0, backward_weight = 0.0296) memory(stash = 96, weight_stash = 96)
// CHECK-NEXT:    pp.stage 1 on rank 1 forward @mlp_stage1_forward backward_input @mlp_stage1_backward_input backward_weight @mlp_stage1_backward_weight costs(forward = 0.0288, backward_input = 0.0352, backward_weight = 0.032) memory(stash = 128, weight_stash = 128)
// CHECK-NEXT:    pp.stage 2 on rank 2 forward @mlp_stage2_forward backward_input @mlp_stage2_backward_input backward_weight @mlp_stage2_backward_weight costs(forward = 0.0121, backward_input = 0.0142, backward_weight = 0.012) memory(stash = 88, weight_stash = 88)

// FUSED:       pp.stage 0 on rank 0 forward @mlp_stage0_forward backward @mlp_stage0_backward costs(forward = 0.0192, backward_input = 0.0296, backward_weight = 0) memory(stash = 96, weight_stash = 0)
// FUSED-NOT:   _backward_input
