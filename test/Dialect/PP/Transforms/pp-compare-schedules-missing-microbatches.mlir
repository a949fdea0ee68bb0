// RUN: pp-opt %s -verify-diagnostics -pp-compare-schedules="memory-limit=2M_B" -o /dev/null

// expected-error @below {{option 'num-microbatches' is required and must be in [1, 2147483647], got 0}}
module {
pp.pipeline @p ranks(2) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 10)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1) memory(stash = 10)
}
}
