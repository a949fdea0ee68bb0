// RUN: pp-opt %s -verify-diagnostics -pp-schedule="schedule=file:%S/Inputs/does-not-exist.csv"

// expected-error @below {{does-not-exist.csv': No such file or directory}}
module {
  pp.pipeline @p ranks(1) {
    pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  }
}
