// RUN: pp-opt %s -verify-diagnostics -pp-place-stages="placement=x" -o /dev/null

// expected-error @below {{option 'placement' must be 'loop', 'v' or a comma-separated rank per stage, got 'x'}}
pp.pipeline @p ranks(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
  pp.stage 2 on rank 2 costs(forward = 1, backward_input = 1)
  pp.stage 3 on rank 3 costs(forward = 1, backward_input = 1)
}
