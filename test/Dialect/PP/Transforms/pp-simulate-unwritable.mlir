// RUN: pp-opt %s -verify-diagnostics -pp-simulate="metrics=%t.missing-dir/metrics.json" -o /dev/null

pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
// expected-error @below {{cannot write '}}
pp.schedule @a pipeline(@p) microbatches(1)
rank 0 {
  %s = pp.forward stage 0 microbatch 0 : () -> !pp.stash<0>
  pp.backward stage 0 microbatch 0 (%s) : (!pp.stash<0>) -> ()
}
