// convert-pp-to-runtime on the three-stage perceptron under ZB-H1 with two
// micro-batches: one function per rank; the last rank's program reads its
// parameter, receives both parts of stage 1's activation (the target and
// the hidden state: kinds 0 and 2), runs F, hands over the loss, seeds B
// with the runtime's loss seed, sends the input gradient (kind 1) and runs
// W, which hands over the parameter gradient. Stash accounting follows
// pp-simulate; under stash-accounting=hold: +M_B at F, +M_W at B, -M_B
// after B, -M_W after W (88 bytes each here). Every rank function records
// the most parts a boundary carries: 2.
// RUN: pp-opt %examples/tanh-mlp3.mlir -pp-partition=function=mlp -pp-differentiate-stages --pp-plan="schedule=zb-h1 num-microbatches=2" -convert-pp-to-runtime=stash-accounting=hold -canonicalize 2>/dev/null | FileCheck %s
// With stash-accounting=convert (the default, as everywhere) B accounts
// M_W - M_B after its call instead: 0 here (M_W = M_B = 88), so no call at
// B at all.
// RUN: pp-opt %examples/tanh-mlp3.mlir -pp-partition=function=mlp -pp-differentiate-stages --pp-plan="schedule=zb-h1 num-microbatches=2" -convert-pp-to-runtime -canonicalize 2>/dev/null | FileCheck %s --check-prefix=CONVERT
// A compact schedule is expanded first: the same rank programs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: pp-opt %examples/tanh-mlp3.mlir -pp-partition=function=mlp -pp-differentiate-stages --pp-plan="schedule=zb-h1 num-microbatches=2 form=compact" -convert-pp-to-runtime -canonicalize 2>/dev/null > %t/compact.mlir
// RUN: pp-opt %examples/tanh-mlp3.mlir -pp-partition=function=mlp -pp-differentiate-stages --pp-plan="schedule=zb-h1 num-microbatches=2 form=ssa" -convert-pp-to-runtime -canonicalize 2>/dev/null > %t/ssa.mlir
// RUN: diff %t/compact.mlir %t/ssa.mlir
// RUN: FileCheck %s --check-prefix=CONVERT --input-file=%t/compact.mlir
// RUN: not pp-opt %examples/tanh-mlp3.mlir -pp-partition=function=mlp -pp-differentiate-stages --pp-plan="schedule=zb-h1 num-microbatches=2" -convert-pp-to-runtime=stash-accounting=both 2>&1 | FileCheck %s --check-prefix=BAD

// CONVERT-LABEL: func.func @mlp_pipeline_zb_h1_rank2(
// CONVERT:         call @pprt_stash(%{{.+}}, %c88_i64)
// CONVERT-NEXT:    call @mlp_stage2_forward(
// CONVERT:         call @pprt_action_begin(%{{.+}}, %c2_i64, %c2_i64, %c0_i64)
// CONVERT-NEXT:    call @mlp_stage2_backward_input(
// CONVERT-NEXT:    call @pprt_action_end(
// CONVERT:         call @pprt_action_begin(%{{.+}}, %c3_i64, %c2_i64, %c0_i64)
// CONVERT-NEXT:    call @mlp_stage2_backward_weight(
// CONVERT-NEXT:    call @pprt_stash(%{{.+}}, %c-88_i64)
// BAD: error: option 'stash-accounting' must be hold or convert, not 'both'

// CHECK-LABEL: func.func @mlp_pipeline_zb_h1_rank0(%{{.+}}: !llvm.ptr) attributes {pp.rank = 0 : i64, pp.schedule = @mlp_pipeline_zb_h1, pprt.boundary_parts = 2 : i64}
// CHECK:         call @pprt_memref_input_f32(
// CHECK-LABEL: func.func @mlp_pipeline_zb_h1_rank1(
// CHECK-LABEL: func.func @mlp_pipeline_zb_h1_rank2(
// CHECK-SAME:    %[[RT:.+]]: !llvm.ptr)
// CHECK-DAG:     %[[C88:.+]] = arith.constant 88 : i64
// CHECK-DAG:     %[[CM88:.+]] = arith.constant -88 : i64
// CHECK:         %[[W:.+]] = memref.alloc() : memref<8x3xf32>
// CHECK:         call @pprt_memref_parameter_f32(%[[RT]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}})
// CHECK:         %[[P:.+]] = bufferization.to_tensor %[[W]] restrict writable
// The activation of stage 1, micro-batch 0, from rank 1: two parts.
// CHECK:         call @pprt_action_begin(%[[RT]], %c5_i64, %c1_i64, %c0_i64)
// CHECK:         call @pprt_memref_recv_f32(%[[RT]], %c1_i64, %c1_i64, %c0_i64, %c0_i64, %c4_i64, %{{.+}})
// CHECK:         call @pprt_memref_recv_f32(%[[RT]], %c1_i64, %c1_i64, %c0_i64, %c2_i64, %c4_i64, %{{.+}})
// CHECK:         call @pprt_action_end(%[[RT]])
// CHECK:         call @pprt_action_begin(%[[RT]], %c0_i64, %c2_i64, %c0_i64)
// CHECK-NEXT:    call @pprt_stash(%[[RT]], %[[C88]])
// CHECK-NEXT:    %[[F:.+]]:3 = call @mlp_stage2_forward(%{{.+}}, %{{.+}}, %[[P]])
// F's stash and outputs are handed to the runtime's memory measurement.
// CHECK:         bufferization.to_buffer %[[F]]#1 read_only
// CHECK:         call @pprt_memref_stash_f32(%[[RT]], %c4_i64, %{{.+}})
// CHECK:         bufferization.to_buffer %[[F]]#2 read_only
// CHECK:         call @pprt_memref_stash_f32(%[[RT]], %c4_i64, %{{.+}})
// CHECK:         bufferization.to_buffer %[[F]]#0 read_only
// CHECK:         call @pprt_memref_activation_f32(%[[RT]], %c4_i64, %{{.+}})
// CHECK:         call @pprt_memref_loss_f32(%[[RT]], %c0_i64, %c4_i64, %{{.+}})
// CHECK:         call @pprt_memref_loss_seed_f32(%[[RT]], %c4_i64, %{{.+}})
// CHECK:         call @pprt_action_begin(%[[RT]], %c2_i64, %c2_i64, %c0_i64)
// CHECK-NEXT:    call @pprt_stash(%[[RT]], %[[C88]])
// CHECK-NEXT:    %[[B:.+]]:2 = call @mlp_stage2_backward_input(%[[P]], %[[F]]#1, %[[F]]#2, %{{.+}})
// CHECK-NEXT:    call @pprt_stash(%[[RT]], %[[CM88]])
// B's input gradient and weight stash:
// CHECK:         bufferization.to_buffer %[[B]]#0 read_only
// CHECK:         call @pprt_memref_activation_f32(%[[RT]], %c4_i64, %{{.+}})
// CHECK:         bufferization.to_buffer %[[B]]#1 read_only
// CHECK:         call @pprt_memref_stash_f32(%[[RT]], %c4_i64, %{{.+}})
// CHECK:         call @pprt_action_begin(%[[RT]], %c4_i64, %c2_i64, %c0_i64)
// CHECK:         call @pprt_memref_send_f32(%[[RT]], %c1_i64, %c2_i64, %c0_i64, %c1_i64, %c4_i64, %{{.+}})
// CHECK:         call @pprt_action_begin(%[[RT]], %c3_i64, %c2_i64, %c0_i64)
// CHECK-NEXT:    %[[G:.+]] = call @mlp_stage2_backward_weight(%[[B]]#1, %[[F]]#2)
// CHECK-NEXT:    call @pprt_stash(%[[RT]], %[[CM88]])
// W's gradient goes into the step's sum inside W's action (its time and
// compute slot), which then ends.
// CHECK:         call @pprt_memref_accumulate_gradient_f32(%[[RT]], %c2_i64, %c0_i64, %c4_i64, %{{.+}})
// CHECK-NEXT:    call @pprt_action_end(%[[RT]])
// CHECK:         return
