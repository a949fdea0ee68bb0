// RUN: pp-opt %s --pp-plan="schedule=1f1b num-microbatches=2" --pp-insert-allreduce="replicas=2" --split-input-file --verify-diagnostics
// RUN: not pp-opt %s --pp-plan="schedule=1f1b num-microbatches=2" --pp-insert-allreduce="replicas=0" 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: option 'replicas' must be in [1, 4096], got 0

// An abstract stage has no functions to take its parameters' bytes from.
pp.pipeline @p ranks(1) activation_bytes(64) {
  // expected-error @below {{the bytes of stage 0's gradients are unknown (an abstract stage): give them with 'gradient-bytes'}}
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 128, weight_stash = 0)
}
