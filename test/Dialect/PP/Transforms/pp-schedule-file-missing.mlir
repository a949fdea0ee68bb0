// RUN: pp-opt %s -verify-diagnostics -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/does-not-exist.csv"

// expected-error @below {{does-not-exist.csv': No such file or directory}}
module {
  pp.pipeline @p ranks(1) {
    pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  }
}
