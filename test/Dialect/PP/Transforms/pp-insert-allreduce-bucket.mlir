// RUN: pp-opt %s --pp-plan="schedule=interleaved-1f1b num-microbatches=4" --pp-insert-allreduce="replicas=2 gradient-bytes=1000,3000,1000,3000 bucket-bytes=2000" | FileCheck %s
// RUN: pp-opt %s --pp-plan="schedule=interleaved-1f1b num-microbatches=4" --pp-insert-allreduce="replicas=2 gradient-bytes=1000,3000,1000,3000 bucket-bytes=2000" --pp-simulate="allreduce-bandwidth=1e9 allreduce-latency=10" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIM
// RUN: pp-opt %s --pp-plan="schedule=interleaved-1f1b num-microbatches=4" --pp-insert-allreduce="replicas=2 gradient-bytes=1000,3000,1000,3000 bucket-bytes=2000" --pp-verify-schedule | FileCheck %s --check-prefix=VERIFIED
// RUN: not pp-opt %s --pp-plan="schedule=interleaved-1f1b num-microbatches=4" --pp-insert-allreduce="replicas=2 gradient-bytes=1000,3000,1000,3000 bucket-bytes=-1" 2>&1 | FileCheck %s --check-prefix=ERR

// Buckets of at most 2000 bytes (bucket-bytes): rank 0's stages (1000
// bytes each) merge into one collective after the later of their last
// backwards (stage 0's); rank 1's (3000 each) stay one per stage, each
// still after its own last backward.
// CHECK: rank 0 {
// CHECK: pp.backward stage 0 microbatch 3
// CHECK-NEXT: pp.allreduce gradients stage 2 replicas 2 bytes 1000 bucket 0
// CHECK-NEXT: pp.allreduce gradients stage 0 replicas 2 bytes 1000 bucket 0
// CHECK-NEXT: }
// CHECK: rank 1 {
// CHECK: pp.backward stage 3 microbatch 3
// CHECK-NEXT: pp.allreduce gradients stage 3 replicas 2 bytes 3000 bucket 0
// CHECK: pp.backward stage 1 microbatch 3
// CHECK-NEXT: pp.allreduce gradients stage 1 replicas 2 bytes 3000 bucket 1

// The simulation runs rank 0's bucket as one ring of 2000 bytes: both
// stages show the same interval.
// SIM: all-reduce of stage 2 on rank 0 (1000 bytes): [[START:[0-9.]+]] - [[END:[0-9.]+]] us
// SIM-NEXT: all-reduce of stage 0 on rank 0 (1000 bytes): [[START]] - [[END]] us

// The replicas with their buckets cannot deadlock.
// VERIFIED: pp.schedule

// ERR: error: option 'bucket-bytes' must be in [0, 1125899906842624], got -1

pp.pipeline @p ranks(2) activation_bytes(64) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 2)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 2)
  pp.stage 2 on rank 0 costs(forward = 1, backward_input = 2)
  pp.stage 3 on rank 1 costs(forward = 1, backward_input = 2)
}
