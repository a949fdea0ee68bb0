// RUN: pp-opt %s -split-input-file -pp-schedule="schedule=gpipe num-microbatches=2" | FileCheck %s --check-prefix=GPIPE
// RUN: pp-opt %s -split-input-file -pp-schedule="schedule=1f1b num-microbatches=3" | FileCheck %s --check-prefix=1F1B
// RUN: pp-opt %s -split-input-file -pp-schedule="schedule=1f1b num-microbatches=1" | FileCheck %s --check-prefix=M1

// GPipe (Huang et al., 2019): all forwards, then the backwards in reverse.
// Compute-only: values that cross ranks have no operand yet; the stash of a
// forward flows to its backward on the same rank.
// GPIPE-LABEL: pp.schedule @p_gpipe pipeline(@p) microbatches(2)
// GPIPE-NEXT:  rank 0 {
// GPIPE-NEXT:    %{{.+}}, %[[S0:.+]] = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<8>)
// GPIPE-NEXT:    %{{.+}}, %[[S1:.+]] = pp.forward stage 0 microbatch 1 : () -> (tensor<4xi8>, !pp.stash<8>)
// GPIPE-NEXT:    pp.backward stage 0 microbatch 1 (%[[S1]]) : (!pp.stash<8>) -> ()
// GPIPE-NEXT:    pp.backward stage 0 microbatch 0 (%[[S0]]) : (!pp.stash<8>) -> ()
// GPIPE-NEXT:  }
// GPIPE-NEXT:  rank 1 {
// GPIPE-NEXT:    %[[T0:.+]] = pp.forward stage 1 microbatch 0 : () -> !pp.stash<8>
// GPIPE-NEXT:    %[[T1:.+]] = pp.forward stage 1 microbatch 1 : () -> !pp.stash<8>
// GPIPE-NEXT:    %{{.+}} = pp.backward stage 1 microbatch 1 (%[[T1]]) : (!pp.stash<8>) -> tensor<4xi8>
// GPIPE-NEXT:    %{{.+}} = pp.backward stage 1 microbatch 0 (%[[T0]]) : (!pp.stash<8>) -> tensor<4xi8>
// GPIPE-NEXT:  }

// 1F1B (Narayanan et al., SC'21): rank 0 warms up with P - 0 - 1 = 1
// forward, then alternates, then cools down; the last rank alternates.
// 1F1B-LABEL: pp.schedule @p_1f1b pipeline(@p) microbatches(3)
// 1F1B-NEXT:  rank 0 {
// 1F1B-NEXT:    pp.forward stage 0 microbatch 0
// 1F1B-NEXT:    pp.forward stage 0 microbatch 1
// 1F1B-NEXT:    pp.backward stage 0 microbatch 0
// 1F1B-NEXT:    pp.forward stage 0 microbatch 2
// 1F1B-NEXT:    pp.backward stage 0 microbatch 1
// 1F1B-NEXT:    pp.backward stage 0 microbatch 2
// 1F1B-NEXT:  }
// 1F1B-NEXT:  rank 1 {
// 1F1B-NEXT:    pp.forward stage 1 microbatch 0
// 1F1B-NEXT:    pp.backward stage 1 microbatch 0
// 1F1B-NEXT:    pp.forward stage 1 microbatch 1
// 1F1B-NEXT:    pp.backward stage 1 microbatch 1
// 1F1B-NEXT:    pp.forward stage 1 microbatch 2
// 1F1B-NEXT:    pp.backward stage 1 microbatch 2
// 1F1B-NEXT:  }

// M < P is legal: one micro-batch on two ranks.
// M1-LABEL: pp.schedule @p_1f1b pipeline(@p) microbatches(1)
// M1-NEXT:  rank 0 {
// M1-NEXT:    pp.forward stage 0 microbatch 0
// M1-NEXT:    pp.backward stage 0 microbatch 0
// M1-NEXT:  }
// M1-NEXT:  rank 1 {
// M1-NEXT:    pp.forward stage 1 microbatch 0
// M1-NEXT:    pp.backward stage 1 microbatch 0
// M1-NEXT:  }
pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1) memory(stash = 8)
}

// -----

// Scheduling again replaces the schedule of the same name; the stage with the
// rank's work may sit on any rank (here stage 0 on rank 1).
// GPIPE-LABEL: pp.pipeline @swapped
// GPIPE-NOT:   pp.schedule @swapped_gpipe pipeline(@swapped) microbatches(1)
// GPIPE:       pp.schedule @swapped_gpipe pipeline(@swapped) microbatches(2)
// GPIPE-NEXT:  rank 0 {
// GPIPE-NEXT:    pp.forward stage 1 microbatch 0
// GPIPE:       rank 1 {
// GPIPE-NEXT:    pp.forward stage 0 microbatch 0
pp.pipeline @swapped ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 1 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 0 costs(forward = 1, backward_input = 1)
}
pp.schedule @swapped_gpipe pipeline(@swapped) microbatches(1)
rank 0 {
  %s = pp.forward stage 1 microbatch 0 : () -> !pp.stash<0>
  %g = pp.backward stage 1 microbatch 0 (%s) : (!pp.stash<0>) -> tensor<4xi8>
}
rank 1 {
  %a, %s = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  pp.backward stage 0 microbatch 0 (%s) : (!pp.stash<0>) -> ()
}
