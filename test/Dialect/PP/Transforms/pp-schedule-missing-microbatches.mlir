// RUN: pp-opt %s -verify-diagnostics -pp-schedule="schedule=gpipe"
// RUN: pp-opt %s -verify-diagnostics -pp-schedule="schedule=1f1b num-microbatches=0"
// RUN: pp-opt %s -verify-diagnostics -pp-schedule="schedule=1f1b num-microbatches=-3"
// RUN: pp-opt %s -verify-diagnostics -pp-schedule="schedule=1f1b num-microbatches=4294967297"

// expected-error @below {{option 'num-microbatches' is required and must be in [1, 2147483647]}}
module {
  pp.pipeline @p ranks(1) {
    pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  }
}
