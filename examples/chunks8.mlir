// Eight model chunks of equal cost for placement experiments: place them on
// four ranks in a loop (interleaved 1F1B, looped BFS) or a V (ZB-V,
// DualPipeV), then compare.
//
//   pp-opt examples/chunks8.mlir --pp-place-stages="ranks=4 placement=v" --pp-compare-schedules="num-microbatches=8" -o /dev/null
//   pp-opt examples/chunks8.mlir --pp-place-stages="ranks=4 placement=loop" --pp-compare-schedules="num-microbatches=8" -o /dev/null
pp.pipeline @p ranks(8) activation_bytes(16) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 100, weight_stash = 50)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 100, weight_stash = 50)
  pp.stage 2 on rank 2 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 100, weight_stash = 50)
  pp.stage 3 on rank 3 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 100, weight_stash = 50)
  pp.stage 4 on rank 4 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 100, weight_stash = 50)
  pp.stage 5 on rank 5 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 100, weight_stash = 50)
  pp.stage 6 on rank 6 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 100, weight_stash = 50)
  pp.stage 7 on rank 7 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 100, weight_stash = 50)
}
