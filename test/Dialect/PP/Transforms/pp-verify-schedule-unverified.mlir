// pp-verify-schedule on input that skipped the verifier (here parsed
// without it; also --verify-each=false, or a pass manager built in code):
// the schedule library's structural checks run before the deadlock check,
// so a schedule the verifier would reject is an error, not a crash.
// RUN: not pp-opt %s -split-input-file -mlir-very-unsafe-disable-verifier-on-parsing -pp-verify-schedule 2>&1 | FileCheck %s

// CHECK: error: 'pp.forward' op {{.*}}stage 5{{.*}}(the schedule did not pass the verifier; {{[0-9]+}} problem(s))
pp.pipeline @p ranks(1) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %s0 = pp.forward stage 5 microbatch 0 : () -> !pp.stash<0>
  pp.backward stage 0 microbatch 0 (%s0) : (!pp.stash<0>) -> ()
}

// -----

// CHECK: error: 'pp.schedule' op refers to @missing, which is not a pp.pipeline
pp.schedule @t pipeline(@missing) microbatches(1)
rank 0 {
}
