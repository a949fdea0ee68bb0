// A report file that cannot be written is an error at the module.
// RUN: pp-opt %s -verify-diagnostics -pp-simulate="report-file=%t.missing-dir/report.txt" -o /dev/null
// RUN: pp-opt %s -verify-diagnostics -pp-compare-schedules="num-microbatches=1 report-file=%t.missing-dir/report.txt" -o /dev/null

// expected-error @below {{cannot write '}}
module {
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
pp.schedule @a pipeline(@p) microbatches(1)
rank 0 {
  %s = pp.forward stage 0 microbatch 0 : () -> !pp.stash<0>
  pp.backward stage 0 microbatch 0 (%s) : (!pp.stash<0>) -> ()
}
}
