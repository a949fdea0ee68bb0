// num-microbatches, if given, must be the table's.
// RUN: pp-opt %s -verify-diagnostics -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/gpipe-p2-m2.csv num-microbatches=4"

// expected-error-re @below {{option 'num-microbatches' is 4, but schedule table '{{.*}}gpipe-p2-m2.csv' has 2 micro-batches; give the table's or leave the option out}}
module {
  pp.pipeline @p ranks(2) {
    pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
    pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
  }
}
