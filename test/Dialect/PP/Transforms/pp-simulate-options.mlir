// Errors of pp-simulate (and pp-compare-schedules) about the files their
// options name.
// RUN: not pp-opt %s -split-input-file -pp-simulate="trace=%t.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE-SCHEDULE
// RUN: not pp-opt %s -split-input-file -pp-simulate="metrics=%t.missing-dir/metrics.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// RUN: not pp-opt %s -split-input-file -pp-simulate="report-file=%t.missing-dir/report.txt" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: not pp-opt %s -split-input-file -pp-compare-schedules="num-microbatches=1 report-file=%t.missing-dir/report.txt" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// The trace and metrics files hold one schedule each.
// ONE-SCHEDULE: :[[@LINE+1]]:1: error: 'trace' and 'metrics' write one schedule, but the module has 2
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

// -----

pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
// UNWRITABLE: :[[@LINE+1]]:1: error: cannot write '
pp.schedule @a pipeline(@p) microbatches(1)
rank 0 {
  %s = pp.forward stage 0 microbatch 0 : () -> !pp.stash<0>
  pp.backward stage 0 microbatch 0 (%s) : (!pp.stash<0>) -> ()
}

// -----

// A report file that cannot be written is an error at the module.
// REPORT: :[[@LINE+1]]:1: error: cannot write '
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
