// RUN: pp-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// pp.allreduce prints and parses back; it follows the stage's last W.
// CHECK-LABEL: pp.schedule @s
// CHECK: pp.backward_weight stage 0 microbatch 0
// CHECK-NEXT: pp.allreduce gradients stage 0 replicas 2 bytes 4096
pp.pipeline @p ranks(1) activation_bytes(16) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 32)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %s0 = pp.forward stage 0 microbatch 0 : () -> !pp.stash<64>
  %w0 = pp.backward_input stage 0 microbatch 0 (%s0) : (!pp.stash<64>) -> !pp.stash<32>
  pp.backward_weight stage 0 microbatch 0 (%w0) : !pp.stash<32>
  pp.allreduce gradients stage 0 replicas 2 bytes 4096
}

// -----

pp.pipeline @p ranks(1) activation_bytes(16) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 32)
}
pp.schedule @s pipeline(@p) microbatches(2)
rank 0 {
  %s0 = pp.forward stage 0 microbatch 0 : () -> !pp.stash<64>
  %s1 = pp.forward stage 0 microbatch 1 : () -> !pp.stash<64>
  %w0 = pp.backward_input stage 0 microbatch 0 (%s0) : (!pp.stash<64>) -> !pp.stash<32>
  pp.backward_weight stage 0 microbatch 0 (%w0) : !pp.stash<32>
  // expected-error @below {{'pp.allreduce' op starts before the gradients of stage 0 are final: its W of micro-batch 1 follows on this rank}}
  pp.allreduce gradients stage 0 replicas 2 bytes 4096
  %w1 = pp.backward_input stage 0 microbatch 1 (%s1) : (!pp.stash<64>) -> !pp.stash<32>
  pp.backward_weight stage 0 microbatch 1 (%w1) : !pp.stash<32>
}

// -----

pp.pipeline @p ranks(1) activation_bytes(16) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 0)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %s0 = pp.forward stage 0 microbatch 0 : () -> !pp.stash<64>
  pp.backward stage 0 microbatch 0 (%s0) : (!pp.stash<64>) -> ()
  // expected-error @below {{'pp.allreduce' op needs at least 2 replicas, not 1}}
  pp.allreduce gradients stage 0 replicas 1 bytes 4096
}

// -----

pp.pipeline @p ranks(1) activation_bytes(16) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 0)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %s0 = pp.forward stage 0 microbatch 0 : () -> !pp.stash<64>
  pp.backward stage 0 microbatch 0 (%s0) : (!pp.stash<64>) -> ()
  // expected-error @below {{'pp.allreduce' op bytes must be >= 0, not -1}}
  pp.allreduce gradients stage 0 replicas 2 bytes -1
}

// -----

pp.pipeline @p ranks(1) activation_bytes(16) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 0)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %s0 = pp.forward stage 0 microbatch 0 : () -> !pp.stash<64>
  pp.backward stage 0 microbatch 0 (%s0) : (!pp.stash<64>) -> ()
  // expected-error @below {{'pp.allreduce' op stage 3 is not in pipeline @p}}
  pp.allreduce gradients stage 3 replicas 2 bytes 8
}

// -----

pp.pipeline @p ranks(1) activation_bytes(16) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 0)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %s0 = pp.forward stage 0 microbatch 0 : () -> !pp.stash<64>
  pp.backward stage 0 microbatch 0 (%s0) : (!pp.stash<64>) -> ()
  // expected-error @below {{'pp.allreduce' op stage 0 has a second all-reduce on this rank}}
  pp.allreduce gradients stage 0 replicas 2 bytes 8
  pp.allreduce gradients stage 0 replicas 2 bytes 8
}

// -----

pp.pipeline @p ranks(2) activation_bytes(16) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 0)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 0)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %s0 = pp.forward stage 0 microbatch 0 : () -> !pp.stash<64>
  pp.backward stage 0 microbatch 0 (%s0) : (!pp.stash<64>) -> ()
  // expected-error @below {{'pp.allreduce' op reduces stage 1, which runs on rank 1, not on rank 0}}
  pp.allreduce gradients stage 1 replicas 2 bytes 8
}
rank 1 {
  %s1 = pp.forward stage 1 microbatch 0 : () -> !pp.stash<64>
  pp.backward stage 1 microbatch 0 (%s1) : (!pp.stash<64>) -> ()
}

// -----

// A bucket: two stages of a rank in one collective, round trip.
// CHECK-LABEL: pp.schedule @bucket
// CHECK: pp.allreduce gradients stage 1 replicas 2 bytes 16 bucket 0
// CHECK-NEXT: pp.allreduce gradients stage 0 replicas 2 bytes 16 bucket 0
pp.pipeline @p ranks(1) activation_bytes(16) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 0)
  pp.stage 1 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 0)
}
pp.schedule @bucket pipeline(@p) microbatches(1)
rank 0 {
  %a0, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<4xf32>, !pp.stash<64>)
  %s1 = pp.forward stage 1 microbatch 0 (%a0) : (tensor<4xf32>) -> !pp.stash<64>
  %g1 = pp.backward stage 1 microbatch 0 (%s1) : (!pp.stash<64>) -> tensor<4xf32>
  pp.backward stage 0 microbatch 0 (%g1, %s0) : (tensor<4xf32>, !pp.stash<64>) -> ()
  pp.allreduce gradients stage 1 replicas 2 bytes 16 bucket 0
  pp.allreduce gradients stage 0 replicas 2 bytes 16 bucket 0
}

// -----

// The members of a bucket follow one another.
pp.pipeline @p ranks(1) activation_bytes(16) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 0)
  pp.stage 1 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 0)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %a0, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<4xf32>, !pp.stash<64>)
  %s1 = pp.forward stage 1 microbatch 0 (%a0) : (tensor<4xf32>) -> !pp.stash<64>
  %g1 = pp.backward stage 1 microbatch 0 (%s1) : (!pp.stash<64>) -> tensor<4xf32>
  // expected-error @below {{'pp.allreduce' op is in bucket 0, whose all-reduces do not follow one another (another action comes between them)}}
  pp.allreduce gradients stage 1 replicas 2 bytes 16 bucket 0
  pp.backward stage 0 microbatch 0 (%g1, %s0) : (tensor<4xf32>, !pp.stash<64>) -> ()
  pp.allreduce gradients stage 0 replicas 2 bytes 16 bucket 0
}

// -----

pp.pipeline @p ranks(1) activation_bytes(16) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 0)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %s0 = pp.forward stage 0 microbatch 0 : () -> !pp.stash<64>
  pp.backward stage 0 microbatch 0 (%s0) : (!pp.stash<64>) -> ()
  // expected-error @below {{'pp.allreduce' op bucket must be >= 0, not -2}}
  pp.allreduce gradients stage 0 replicas 2 bytes 16 bucket -2
}

// -----

// With all-reduces, every stage that runs a backward on its rank has one:
// here stage 1's gradients would differ between the replicas.
pp.pipeline @p ranks(1) activation_bytes(16) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 0)
  pp.stage 1 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op has all-reduces, but none for stage 1 on rank 0: its gradients would differ between the 2 replicas (run pp-insert-allreduce to place one per stage)}}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %a0, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<16xi8>, !pp.stash<64>)
  %s1 = pp.forward stage 1 microbatch 0 (%a0) : (tensor<16xi8>) -> !pp.stash<64>
  %g1 = pp.backward stage 1 microbatch 0 (%s1) : (!pp.stash<64>) -> tensor<16xi8>
  pp.backward stage 0 microbatch 0 (%g1, %s0) : (tensor<16xi8>, !pp.stash<64>) -> ()
  pp.allreduce gradients stage 0 replicas 2 bytes 4096
}

// -----

// One set of replicas per schedule.
pp.pipeline @p ranks(1) activation_bytes(16) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 0)
  pp.stage 1 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op the all-reduce of stage 1 is over 2 replicas, but stage 0's is over 4; a schedule's all-reduces are over one set of replicas}}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %a0, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<16xi8>, !pp.stash<64>)
  %s1 = pp.forward stage 1 microbatch 0 (%a0) : (tensor<16xi8>) -> !pp.stash<64>
  %g1 = pp.backward stage 1 microbatch 0 (%s1) : (!pp.stash<64>) -> tensor<16xi8>
  pp.allreduce gradients stage 1 replicas 2 bytes 4096
  pp.backward stage 0 microbatch 0 (%g1, %s0) : (tensor<16xi8>, !pp.stash<64>) -> ()
  pp.allreduce gradients stage 0 replicas 4 bytes 4096
}
