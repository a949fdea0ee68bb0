// Choosing the schedule and the format.
// RUN: pp-translate %s --export-pp-csv --pp-schedule-name=b | FileCheck %s --check-prefix=B --match-full-lines
// B:     0F0,1F0,1B0,0B0
// B-NOT: {{.}}

// compute_comms of a schedule without send/recv is fine when no value
// crosses ranks.
// RUN: pp-translate %s --export-pp-csv --pp-schedule-name=b --pp-csv-format=compute_comms | FileCheck %s --check-prefix=B --match-full-lines

// RUN: not pp-translate %s --export-pp-csv --pp-schedule-name=nope 2>&1 | FileCheck %s --check-prefix=NONAME
// NONAME: export-options.mlir:[[# @LINE + 10]]:1: error: no pp.schedule named @nope

// compute_comms needs the communication of a schedule whose values cross
// ranks.
// RUN: not pp-translate %s --export-pp-csv --pp-schedule-name=a --pp-csv-format=compute_comms 2>&1 | FileCheck %s --check-prefix=NOCOMMS
// NOCOMMS: export-options.mlir:[[# @LINE + 14]]:3: error: cannot export @a as compute_comms: format compute_comms needs a schedule with send/recv, but this one has none and stage 0 (rank 0) and stage 1 (rank 1) are on different ranks; insert the communication first or export compute_only

// RUN: not pp-translate %s --export-pp-csv --pp-schedule-name=a --pp-csv-format=csv 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: export-options.mlir:[[# @LINE + 11]]:3: error: unknown --pp-csv-format 'csv'; expected compute_only or compute_comms

module {
  pp.pipeline @p ranks(2) activation_bytes(4) {
    pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8)
    pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1) memory(stash = 8)
  }
  pp.pipeline @one ranks(1) activation_bytes(4) {
    pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8)
    pp.stage 1 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8)
  }
  pp.schedule @a pipeline(@p) microbatches(1)
  rank 0 {
    %a, %s = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<8>)
    pp.backward stage 0 microbatch 0 (%s) : (!pp.stash<8>) -> ()
  }
  rank 1 {
    %s = pp.forward stage 1 microbatch 0 : () -> !pp.stash<8>
    %g = pp.backward stage 1 microbatch 0 (%s) : (!pp.stash<8>) -> tensor<4xi8>
  }
  // Both stages on one rank: nothing crosses ranks, so compute_comms needs
  // no send/recv.
  pp.schedule @b pipeline(@one) microbatches(1)
  rank 0 {
    %a, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<8>)
    %s1 = pp.forward stage 1 microbatch 0 (%a) : (tensor<4xi8>) -> !pp.stash<8>
    %g = pp.backward stage 1 microbatch 0 (%s1) : (!pp.stash<8>) -> tensor<4xi8>
    pp.backward stage 0 microbatch 0 (%g, %s0) : (tensor<4xi8>, !pp.stash<8>) -> ()
  }
}
