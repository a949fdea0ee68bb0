// RUN: pp-opt %s --pp-plan="schedule=1f1b num-microbatches=2" --pp-insert-allreduce="replicas=2" --split-input-file --verify-diagnostics
// RUN: not pp-opt %s --pp-plan="schedule=1f1b num-microbatches=2" --pp-insert-allreduce="replicas=0" 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: option 'replicas' must be in [1, 4096], got 0
// RUN: not pp-opt %s --pp-plan="schedule=1f1b num-microbatches=2" --pp-insert-allreduce="replicas=2 gradient-bytes=64,-5" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: option 'gradient-bytes': entry 1 is -5; bytes must be >= 0
// RUN: not pp-opt %s --pp-plan="schedule=1f1b num-microbatches=2" --pp-insert-allreduce="replicas=2 gradient-bytes=64,64" 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: error: option 'gradient-bytes' has 2 entries, but pipeline @p has 1 stages; give one per stage, or one for every stage

// An abstract stage has no functions to take its parameters' bytes from.
pp.pipeline @p ranks(1) activation_bytes(64) {
  // expected-error @below {{the bytes of stage 0's gradients are unknown (an abstract stage): give them with 'gradient-bytes'}}
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 128, weight_stash = 0)
}
