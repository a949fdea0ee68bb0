// The table must place every stage where the pipeline does.
// RUN: pp-opt %s -verify-diagnostics -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/gpipe-p2-m2.csv"

// expected-error @below {{gpipe-p2-m2.csv' places stage 0 on rank 0, but pipeline @p places it on rank 1}}
pp.pipeline @p ranks(2) {
  pp.stage 0 on rank 1 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 0 costs(forward = 1, backward_input = 1)
}
