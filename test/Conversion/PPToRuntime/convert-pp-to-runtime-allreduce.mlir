// RUN: pp-opt %s -convert-pp-to-runtime | FileCheck %s

// pp.allreduce becomes a call of pprt_allreduce where it stands: after the
// stage's last backward, before the program ends.
// CHECK-LABEL: func.func @s_rank0(
// CHECK-DAG: %[[S:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[START:.*]] = arith.constant 1 : i64
// CHECK: call @pprt_memref_accumulate_gradient_f32(
// CHECK-NEXT: call @pprt_action_end(
// CHECK-NEXT: call @pprt_allreduce(%arg0, %[[S]], %[[START]]) : (!llvm.ptr, i64, i64) -> ()
// CHECK-NEXT: return
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 forward @f0 backward @b0
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %st = pp.forward stage 0 microbatch 0 : () -> !pp.stash<0>
  pp.backward stage 0 microbatch 0 (%st) : (!pp.stash<0>) -> ()
  pp.allreduce gradients stage 0 replicas 2 bytes 16
}
func.func @f0(%x: tensor<4xf32>, %w: tensor<4xf32> {pp.parameter}) -> tensor<f32> {
  %c = arith.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}
func.func @b0(%w: tensor<4xf32> {pp.parameter}, %d: tensor<f32> {pp.gradient}) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
