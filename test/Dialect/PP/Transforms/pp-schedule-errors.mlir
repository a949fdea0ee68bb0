// GPipe and 1F1B need exactly one stage per rank.
// RUN: pp-opt %s -split-input-file -verify-diagnostics -pp-schedule="schedule=1f1b num-microbatches=2"

// expected-error @below {{'1f1b' needs one stage per rank, but the pipeline has 2 stages on 1 rank}}
pp.pipeline @two_stages_one_rank ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 0 costs(forward = 1, backward_input = 1)
}

// -----

// expected-error @below {{'1f1b' needs one stage per rank, but the pipeline has 1 stage on 2 ranks}}
pp.pipeline @one_stage_two_ranks ranks(2) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
