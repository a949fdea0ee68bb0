// RUN: pp-opt %s --pp-plan="schedule=zb-h1 num-microbatches=3" --pp-insert-allreduce="replicas=2 gradient-bytes=1000,3000" | FileCheck %s --check-prefix=ZB
// RUN: pp-opt %s --pp-plan="schedule=1f1b num-microbatches=3" --pp-insert-allreduce="replicas=4 gradient-bytes=1000,3000" | FileCheck %s --check-prefix=FUSED
// RUN: pp-opt %s --pp-plan="schedule=zb-h1 num-microbatches=3" --pp-insert-allreduce="replicas=2 gradient-bytes=1000,3000" --pp-insert-allreduce="replicas=1" | FileCheck %s --check-prefix=ONE
// RUN: pp-opt %s --pp-plan="schedule=zb-h1 num-microbatches=3" --pp-insert-allreduce="replicas=2 gradient-bytes=1000,3000" --pp-insert-allreduce="replicas=3 gradient-bytes=1000,3000" | FileCheck %s --check-prefix=AGAIN
// One entry of gradient-bytes is every stage's.
// RUN: pp-opt %s --pp-plan="schedule=zb-h1 num-microbatches=3" --pp-insert-allreduce="replicas=2 gradient-bytes=700" | FileCheck %s --check-prefix=EVERY
// EVERY: pp.allreduce gradients stage 0 replicas 2 bytes 700
// EVERY: pp.allreduce gradients stage 1 replicas 2 bytes 700

// Each stage's all-reduce comes right after its last W of the step (ZB-H1:
// the W of micro-batch 2), on the stage's rank, with the stage's bytes.
// ZB: rank 0 {
// ZB: pp.backward_weight stage 0 microbatch 2
// ZB-NEXT: pp.allreduce gradients stage 0 replicas 2 bytes 1000
// ZB-NEXT: }
// ZB: rank 1 {
// ZB: pp.backward_weight stage 1 microbatch 2
// ZB-NEXT: pp.allreduce gradients stage 1 replicas 2 bytes 3000
// ZB-NEXT: }

// With a fused backward, after the last backward; rank 1's gradient send of
// that micro-batch follows the all-reduce (it does not wait for it).
// FUSED: rank 0 {
// FUSED: pp.backward stage 0 microbatch 2
// FUSED-NEXT: pp.allreduce gradients stage 0 replicas 4 bytes 1000
// FUSED-NEXT: }
// FUSED: rank 1 {
// FUSED: pp.backward stage 1 microbatch 2
// FUSED-NEXT: pp.allreduce gradients stage 1 replicas 4 bytes 3000
// FUSED-NEXT: pp.send gradient stage 1 microbatch 2 to rank 0

// at-end: after the rank's last action instead, here the gradient send.
// RUN: pp-opt %s --pp-plan="schedule=1f1b num-microbatches=3" --pp-insert-allreduce="replicas=4 gradient-bytes=1000,3000 at-end" | FileCheck %s --check-prefix=AT-END
// AT-END: rank 0 {
// AT-END: pp.backward stage 0 microbatch 2
// AT-END-NEXT: pp.allreduce gradients stage 0 replicas 4 bytes 1000
// AT-END-NEXT: }
// AT-END: rank 1 {
// AT-END: pp.backward stage 1 microbatch 2
// AT-END-NEXT: pp.send gradient stage 1 microbatch 2 to rank 0
// AT-END-NEXT: pp.allreduce gradients stage 1 replicas 4 bytes 3000
// AT-END-NEXT: }

// pp-plan{replicas=D} runs the pass after the messages: the same IR as
// pp-plan then pp-insert-allreduce, buckets and at-end included, and the
// replicas proved deadlock-free by its pp-verify-schedule.
// RUN: pp-opt %s --pp-plan="schedule=zb-h1 num-microbatches=3 replicas=2 gradient-bytes=1000,3000" > %t.plan
// RUN: pp-opt %s --pp-plan="schedule=zb-h1 num-microbatches=3" --pp-insert-allreduce="replicas=2 gradient-bytes=1000,3000" > %t.passes
// RUN: diff %t.plan %t.passes
// RUN: pp-opt %s --pp-plan="schedule=1f1b num-microbatches=3 replicas=4 gradient-bytes=1000,3000 bucket-bytes=100000 at-end" > %t.plan-end
// RUN: pp-opt %s --pp-plan="schedule=1f1b num-microbatches=3" --pp-insert-allreduce="replicas=4 gradient-bytes=1000,3000 bucket-bytes=100000 at-end" > %t.passes-end
// RUN: diff %t.plan-end %t.passes-end
// RUN: FileCheck %s --check-prefix=AT-END < %t.plan-end
// RUN: not pp-opt %s --pp-plan="schedule=zb-h1 num-microbatches=3 replicas=0" 2>&1 | FileCheck %s --check-prefix=PLAN-ZERO
// PLAN-ZERO: error: option 'replicas' must be in [1, 4096], got 0
// The all-reduce options are checked with one replica too (pp-plan runs
// the pass whenever one is given), under the names the user typed.
// RUN: not pp-opt %s --pp-plan="schedule=zb-h1 num-microbatches=3 replicas=1 gradient-bytes=-5" 2>&1 | FileCheck %s --check-prefix=ONE-NEGATIVE
// RUN: not pp-opt %s --pp-plan="schedule=zb-h1 num-microbatches=3" --pp-insert-allreduce="replicas=1 gradient-bytes=-5" 2>&1 | FileCheck %s --check-prefix=ONE-NEGATIVE
// ONE-NEGATIVE: error: option 'gradient-bytes': entry 0 is -5; bytes must be >= 0
// RUN: not pp-opt %s --pp-plan="schedule=zb-h1 num-microbatches=3 bucket-bytes=-3" 2>&1 | FileCheck %s --check-prefix=ONE-BUCKET
// ONE-BUCKET: error: option 'bucket-bytes' must be in [0, {{[0-9]+}}], got -3
// RUN: pp-opt %s --pp-plan="schedule=zb-h1 num-microbatches=3 replicas=1 at-end" | FileCheck %s --check-prefix=ONE
// RUN: not pp-opt %s --pp-plan="schedule=zb-h1 num-microbatches=3" --pp-insert-allreduce="replicas=1 gradient-bytes=1,2,3" 2>&1 | FileCheck %s --check-prefix=ONE-COUNT
// ONE-COUNT: error: option 'gradient-bytes' has 3 entries, but pipeline @p has 2 stages

// One replica: no all-reduce; running the pass again replaces them.
// ONE-NOT: pp.allreduce
// AGAIN-COUNT-2: pp.allreduce gradients stage {{[01]}} replicas 3
// AGAIN-NOT: pp.allreduce

pp.pipeline @p ranks(2) activation_bytes(64) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 128, weight_stash = 64)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 128, weight_stash = 64)
}
