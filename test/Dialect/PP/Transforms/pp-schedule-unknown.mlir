// RUN: pp-opt %s -verify-diagnostics -pp-schedule="schedule=foo num-microbatches=4"

// expected-error @below {{pp-schedule: schedule 'foo' is unknown; known schedules: gpipe, 1f1b}}
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
