// A table is verified before it is used; problems name rank and step.
// RUN: pp-opt %s -verify-diagnostics -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/backward-first.csv"

// expected-error @below {{backward-first.csv', rank 1, step 1: backward of stage 1 micro-batch 0 runs before its forward on rank 1}}
pp.pipeline @p ranks(2) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
}
