// RUN: pp-opt %s -verify-diagnostics -pp-schedule="schedule=gpipe num-microbatches=2 pipeline=nope"

// expected-error @below {{no pp.pipeline named @nope}}
module {
  pp.pipeline @p ranks(1) {
    pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  }
}
