// The shared MNIST MLP (google/heir, Apache-2.0; see ../shared/models/
// SOURCES.md) with a cross-entropy loss, cut into 1, 2 and 4 stages with F,
// B and W for every stage. For each cut, the staged forward equals the
// model bit for bit, the gradient through the stages (F, then B and W in
// reverse) equals pp-autodiff's gradient of the whole model bit for bit,
// and B then W equals each stage's fused backward bit for bit.
// REQUIRES: shared-models
//
// RUN: pp-opt %shared_models/google_heir__mnist_mlp.mlir -pp-lift-parameters="function=mnist parameters=0,1,2,3 data=4" -pp-append-loss="function=mnist kind=cross-entropy" -pp-prepare-model -o %t.model.mlir
//
// RUN: pp-opt %t.model.mlir -pp-partition="function=mnist_loss num-stages=1" -pp-differentiate-stages -pp-autodiff="function=mnist_loss wrt=0,1,2,3" -o %t1.mlir 2>/dev/null
// RUN: FileCheck %s --input-file=%t1.mlir --check-prefix=S1
// RUN: pp-exec %t1.mlir --entry=mnist_loss --compare=mnist_loss_staged | FileCheck %s --check-prefix=EQUAL
// RUN: pp-exec %t1.mlir --entry=mnist_loss_grad --compare=mnist_loss_staged_grad | FileCheck %s --check-prefix=EQUAL
// RUN: pp-exec %t1.mlir --entry=mnist_loss_stage0_backward --compare=mnist_loss_stage0_backward_split | FileCheck %s --check-prefix=EQUAL
//
// RUN: pp-opt %t.model.mlir -pp-partition="function=mnist_loss num-stages=2" -pp-differentiate-stages -pp-autodiff="function=mnist_loss wrt=0,1,2,3" -o %t2.mlir 2>/dev/null
// RUN: FileCheck %s --input-file=%t2.mlir --check-prefix=S2
// RUN: pp-exec %t2.mlir --entry=mnist_loss --compare=mnist_loss_staged | FileCheck %s --check-prefix=EQUAL
// RUN: pp-exec %t2.mlir --entry=mnist_loss_grad --compare=mnist_loss_staged_grad | FileCheck %s --check-prefix=EQUAL
// RUN: pp-exec %t2.mlir --entry=mnist_loss_stage0_backward --compare=mnist_loss_stage0_backward_split | FileCheck %s --check-prefix=EQUAL
// RUN: pp-exec %t2.mlir --entry=mnist_loss_stage1_backward --compare=mnist_loss_stage1_backward_split | FileCheck %s --check-prefix=EQUAL
//
// RUN: pp-opt %t.model.mlir -pp-partition="function=mnist_loss num-stages=4" -pp-differentiate-stages -pp-autodiff="function=mnist_loss wrt=0,1,2,3" -o %t4.mlir 2>/dev/null
// RUN: FileCheck %s --input-file=%t4.mlir --check-prefix=S4
// RUN: pp-exec %t4.mlir --entry=mnist_loss --compare=mnist_loss_staged | FileCheck %s --check-prefix=EQUAL
// RUN: pp-exec %t4.mlir --entry=mnist_loss_grad --compare=mnist_loss_staged_grad | FileCheck %s --check-prefix=EQUAL
// RUN: pp-exec %t4.mlir --entry=mnist_loss_stage0_backward --compare=mnist_loss_stage0_backward_split | FileCheck %s --check-prefix=EQUAL
// RUN: pp-exec %t4.mlir --entry=mnist_loss_stage1_backward --compare=mnist_loss_stage1_backward_split | FileCheck %s --check-prefix=EQUAL
// RUN: pp-exec %t4.mlir --entry=mnist_loss_stage2_backward --compare=mnist_loss_stage2_backward_split | FileCheck %s --check-prefix=EQUAL
// RUN: pp-exec %t4.mlir --entry=mnist_loss_stage3_backward --compare=mnist_loss_stage3_backward_split | FileCheck %s --check-prefix=EQUAL
//
// And the staged gradient against finite differences (f64):
// RUN: pp-exec %t4.mlir --entry=mnist_loss --check-gradients --gradient=mnist_loss_staged_grad --wrt=0,1,2,3 | FileCheck %s --check-prefix=GRADCHECK

// EQUAL: compare: results bitwise equal
// GRADCHECK: gradient check PASSED

// S1:      pp.stage 0 on rank 0 forward @mnist_loss_stage0_forward backward_input @mnist_loss_stage0_backward_input backward_weight @mnist_loss_stage0_backward_weight
// The first matmul (784 -> 512) is a stage of its own; stage 0 has no input
// gradient, so its B costs nothing.
// S2:      pp.stage 0 on rank 0 forward @mnist_loss_stage0_forward backward_input @mnist_loss_stage0_backward_input backward_weight @mnist_loss_stage0_backward_weight costs(forward = {{.+}}, backward_input = 0,
// S2-NEXT: pp.stage 1 on rank 1 forward @mnist_loss_stage1_forward backward_input @mnist_loss_stage1_backward_input backward_weight @mnist_loss_stage1_backward_weight
// S4:      pp.stage 0 on rank 0
// S4:      pp.stage 3 on rank 3 forward @mnist_loss_stage3_forward backward_input @mnist_loss_stage3_backward_input backward_weight @mnist_loss_stage3_backward_weight
