// The trace and metrics files hold one schedule each.
// RUN: pp-opt %s -verify-diagnostics -pp-simulate="trace=%t.json"
// expected-error @below {{'trace' and 'metrics' write one schedule, but the module has 2}}
module {
  pp.pipeline @p ranks(1) {
    pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  }
  pp.schedule @a pipeline(@p) microbatches(1)
  rank 0 {
    %s = pp.forward stage 0 microbatch 0 : () -> !pp.stash<0>
    pp.backward stage 0 microbatch 0 (%s) : (!pp.stash<0>) -> ()
  }
  pp.schedule @b pipeline(@p) microbatches(1)
  rank 0 {
    %s = pp.forward stage 0 microbatch 0 : () -> !pp.stash<0>
    pp.backward stage 0 microbatch 0 (%s) : (!pp.stash<0>) -> ()
  }
}
