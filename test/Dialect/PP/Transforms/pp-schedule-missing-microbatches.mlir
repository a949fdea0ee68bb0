// RUN: pp-opt %s -verify-diagnostics -pp-schedule="schedule=gpipe"
// RUN: pp-opt %s -verify-diagnostics -pp-schedule="schedule=1f1b num-microbatches=0"
// RUN: pp-opt %s -verify-diagnostics -pp-schedule="schedule=1f1b num-microbatches=-3"

// expected-error @below {{pp-schedule: option 'num-microbatches' is required and must be at least 1}}
module {
  pp.pipeline @p ranks(1) {
    pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  }
}
