// RUN: pp-translate %s --export-pp-csv -split-input-file -verify-diagnostics
// RUN: pp-translate %s --export-svg -split-input-file -verify-diagnostics
// RUN: pp-translate %s --export-chrome-trace -split-input-file -verify-diagnostics

// expected-error @below {{the module has no pp.schedule; run pp-opt --pp-schedule first}}
module {
  pp.pipeline @p ranks(1) {
    pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  }
}

// -----

// expected-error @below {{the module has 2 pp.schedule ops (@a, @b); choose one with --pp-schedule-name}}
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
