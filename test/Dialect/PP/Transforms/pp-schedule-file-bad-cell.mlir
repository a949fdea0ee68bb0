// A table that cannot be read: the error names rank (row) and step (column).
// RUN: pp-opt %s -verify-diagnostics -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/bad-cell.csv"

// expected-error @below {{bad-cell.csv': rank 1, step 3: cannot parse action 'X9'}}
module {
  pp.pipeline @p ranks(2) {
    pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
    pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
  }
}
