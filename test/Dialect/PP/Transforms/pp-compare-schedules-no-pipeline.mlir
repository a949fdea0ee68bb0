// RUN: pp-opt %s -verify-diagnostics -pp-compare-schedules="num-microbatches=2 pipeline=q" -o /dev/null

// expected-error @below {{no pp.pipeline named @q}}
module {
pp.pipeline @p ranks(2) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 10)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1) memory(stash = 10)
}
}
