// RUN: pp-opt %s -verify-diagnostics -pp-schedule="schedule=foo num-microbatches=4"

// expected-error @below {{schedule 'foo' is unknown; known schedules: gpipe, 1f1b, interleaved-1f1b, looped-bfs, zb-h1, zb-h2, zb-v, dualpipe-v, v-half, v-min, auto}}
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
