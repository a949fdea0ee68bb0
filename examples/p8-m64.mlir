// Seed configuration: P = 8 ranks, M = 64 micro-batches, one stage per rank,
// unit costs (F = B = 1 us, W = 0), 1 MiB stashed per forward (M_B), 256 KiB
// activations between stages, no latency.
//
//   pp-opt examples/p8-m64.mlir --pp-plan="schedule=1f1b num-microbatches=64" --pp-simulate -o /dev/null
//
// (schedule=gpipe for GPipe). test/examples/p8-m64.mlir pins the result.
pp.pipeline @p8 ranks(8) activation_bytes(262144) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 0) memory(stash = 1048576, weight_stash = 0)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 0) memory(stash = 1048576, weight_stash = 0)
  pp.stage 2 on rank 2 costs(forward = 1, backward_input = 1, backward_weight = 0) memory(stash = 1048576, weight_stash = 0)
  pp.stage 3 on rank 3 costs(forward = 1, backward_input = 1, backward_weight = 0) memory(stash = 1048576, weight_stash = 0)
  pp.stage 4 on rank 4 costs(forward = 1, backward_input = 1, backward_weight = 0) memory(stash = 1048576, weight_stash = 0)
  pp.stage 5 on rank 5 costs(forward = 1, backward_input = 1, backward_weight = 0) memory(stash = 1048576, weight_stash = 0)
  pp.stage 6 on rank 6 costs(forward = 1, backward_input = 1, backward_weight = 0) memory(stash = 1048576, weight_stash = 0)
  pp.stage 7 on rank 7 costs(forward = 1, backward_input = 1, backward_weight = 0) memory(stash = 1048576, weight_stash = 0)
}
