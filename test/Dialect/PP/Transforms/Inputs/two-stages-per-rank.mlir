// Four stages on two ranks (looped placement), for interleaved schedules.
pp.pipeline @q ranks(2) activation_bytes(64) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 128, weight_stash = 64)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 128, weight_stash = 64)
  pp.stage 2 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 128, weight_stash = 64)
  pp.stage 3 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 128, weight_stash = 64)
}
