// A heterogeneous pipeline for choosing a schedule: four ranks, the last
// stage (which carries the loss) 1.5x slower, the backward split into B and W,
// 0.1 us latency, 100 bytes stashed per forward and 50 per B (units are
// arbitrary but consistent: read 100 bytes as one M_B).
//
//   pp-opt examples/hetero-p4.mlir --pp-compare-schedules="num-microbatches=12" -o /dev/null
//   pp-opt examples/hetero-p4.mlir --pp-compare-schedules="num-microbatches=12 memory-limit=4.5M_B" -o /dev/null
pp.pipeline @hetero ranks(4) latency(0.1) activation_bytes(1024) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 100, weight_stash = 50)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 100, weight_stash = 50)
  pp.stage 2 on rank 2 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 100, weight_stash = 50)
  pp.stage 3 on rank 3 costs(forward = 1.5, backward_input = 1.5, backward_weight = 1) memory(stash = 100, weight_stash = 50)
}
