// The table must have the pipeline's stages.
// RUN: pp-opt %s -verify-diagnostics -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/gpipe-p2-m2.csv"

// expected-error @below {{gpipe-p2-m2.csv' has 2 stages, but pipeline @p has 3}}
pp.pipeline @p ranks(3) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
  pp.stage 2 on rank 2 costs(forward = 1, backward_input = 1)
}
