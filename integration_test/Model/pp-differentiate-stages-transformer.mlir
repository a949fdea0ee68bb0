// The shared decoder layer (buddy-mlir, Apache-2.0; see ../shared/models/
// SOURCES.md; TOSA, about 47 M parameters) with an MSE loss, cut into 1, 2
// and 4 stages with F, B and W for every stage. The staged forward equals
// the layer bit for bit for each cut; for 4 stages, the gradient through
// the stages (F, then B and W in reverse) equals pp-autodiff's gradient of
// the whole layer bit for bit (about a minute on one core).
// REQUIRES: shared-models
//
// Parameters: the norms' weights and the projections (arguments 2, 3, 4,
// 5, 7, 9, 10, 11, 12); data: the hidden states, the rotary tables, the
// positions and the loss's target.
// RUN: pp-opt %shared_models/buddy-mlir__transformer_layer_tosa.mlir --pp-strip-instrumentation --pp-prepare-model --pp-append-loss="function=subgraph0 kind=mse" -o %t.model.mlir 2>/dev/null
//
// RUN: pp-opt %t.model.mlir -pp-partition="function=subgraph0_loss num-stages=1 parameters=2,3,4,5,7,9,10,11,12" -pp-differentiate-stages -o %t1.mlir 2>/dev/null
// RUN: FileCheck %s --input-file=%t1.mlir --check-prefix=S1
// RUN: pp-exec %t1.mlir --entry=subgraph0_loss --compare=subgraph0_loss_staged | FileCheck %s --check-prefix=EQUAL
//
// RUN: pp-opt %t.model.mlir -pp-partition="function=subgraph0_loss num-stages=2 parameters=2,3,4,5,7,9,10,11,12" -pp-differentiate-stages -o %t2.mlir 2>/dev/null
// RUN: FileCheck %s --input-file=%t2.mlir --check-prefix=S2
// RUN: pp-exec %t2.mlir --entry=subgraph0_loss --compare=subgraph0_loss_staged | FileCheck %s --check-prefix=EQUAL
//
// RUN: pp-opt %t.model.mlir -pp-partition="function=subgraph0_loss num-stages=4 parameters=2,3,4,5,7,9,10,11,12" -pp-differentiate-stages -pp-autodiff="function=subgraph0_loss wrt=2,3,4,5,7,9,10,11,12" -o %t4.mlir 2>/dev/null
// RUN: FileCheck %s --input-file=%t4.mlir --check-prefix=S4
// RUN: pp-exec %t4.mlir --entry=subgraph0_loss --compare=subgraph0_loss_staged | FileCheck %s --check-prefix=EQUAL
// RUN: pp-exec %t4.mlir --entry=subgraph0_loss_grad --compare=subgraph0_loss_staged_grad | FileCheck %s --check-prefix=GRAD

// EQUAL: compare: results bitwise equal

// GRAD: result 0 (tensor<f32>): bitwise equal
// GRAD: result 9 (tensor<1536x8960xf32>): bitwise equal
// GRAD: compare: results bitwise equal

// S1: pp.stage 0 on rank 0 forward @subgraph0_loss_stage0_forward backward_input @subgraph0_loss_stage0_backward_input backward_weight @subgraph0_loss_stage0_backward_weight
// S2: pp.stage 1 on rank 1 forward @subgraph0_loss_stage1_forward backward_input @subgraph0_loss_stage1_backward_input backward_weight @subgraph0_loss_stage1_backward_weight
// S4: pp.stage 3 on rank 3 forward @subgraph0_loss_stage3_forward backward_input @subgraph0_loss_stage3_backward_input backward_weight @subgraph0_loss_stage3_backward_weight
