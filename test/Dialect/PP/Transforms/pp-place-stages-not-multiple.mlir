// RUN: pp-opt %s -verify-diagnostics -pp-place-stages="ranks=3 placement=loop" -o /dev/null

// expected-error @below {{placement 'loop' needs a multiple of 3 stages, but the pipeline has 4}}
pp.pipeline @p ranks(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
  pp.stage 2 on rank 2 costs(forward = 1, backward_input = 1)
  pp.stage 3 on rank 3 costs(forward = 1, backward_input = 1)
}
