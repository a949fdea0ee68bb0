// RUN: pp-opt %s -verify-diagnostics -pp-place-stages="placement=0,1,2,9" -o /dev/null

// expected-error @below {{rank 9 in the placement is out of range: the pipeline has 4 ranks}}
pp.pipeline @p ranks(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
  pp.stage 2 on rank 2 costs(forward = 1, backward_input = 1)
  pp.stage 3 on rank 3 costs(forward = 1, backward_input = 1)
}
