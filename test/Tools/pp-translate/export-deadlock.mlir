// Simulating needs a schedule that runs to the end under blocking
// send/recv; a deadlock names every blocked rank at its action.
// RUN: pp-translate %s --export-svg -verify-diagnostics
// RUN: pp-translate %s --export-chrome-trace -verify-diagnostics
// Exporting the table needs no simulation.
// RUN: pp-translate %s --export-pp-csv | FileCheck %s
// CHECK:      0F0,0SEND_F0,0F1,0SEND_F1,0RECV_B0,0B0,0RECV_B1,0B1
// CHECK-NEXT: 1RECV_F0,1F0,1B0,1SEND_B0,1RECV_F1,1F1,1B1,1SEND_B1

pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
}
// expected-error @below {{schedule @deadlock deadlocks and cannot be simulated}}
pp.schedule @deadlock pipeline(@p) microbatches(2)
rank 0 {
  %a0, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  pp.send activation stage 0 microbatch 0 to rank 1 (%a0) : tensor<4xi8>
  %a1, %s1 = pp.forward stage 0 microbatch 1 : () -> (tensor<4xi8>, !pp.stash<0>)
  // expected-note @below {{rank 0 waits at send of activation of stage 0 micro-batch 1 to rank 1}}
  pp.send activation stage 0 microbatch 1 to rank 1 (%a1) : tensor<4xi8>
  %g0 = pp.recv gradient stage 1 microbatch 0 from rank 1 : tensor<4xi8>
  pp.backward stage 0 microbatch 0 (%g0, %s0) : (tensor<4xi8>, !pp.stash<0>) -> ()
  %g1 = pp.recv gradient stage 1 microbatch 1 from rank 1 : tensor<4xi8>
  pp.backward stage 0 microbatch 1 (%g1, %s1) : (tensor<4xi8>, !pp.stash<0>) -> ()
}
rank 1 {
  %r0 = pp.recv activation stage 0 microbatch 0 from rank 0 : tensor<4xi8>
  %t0 = pp.forward stage 1 microbatch 0 (%r0) : (tensor<4xi8>) -> !pp.stash<0>
  %b0 = pp.backward stage 1 microbatch 0 (%t0) : (!pp.stash<0>) -> tensor<4xi8>
  // expected-note @below {{rank 1 waits at send of gradient of stage 1 micro-batch 0 to rank 0}}
  pp.send gradient stage 1 microbatch 0 to rank 0 (%b0) : tensor<4xi8>
  %r1 = pp.recv activation stage 0 microbatch 1 from rank 0 : tensor<4xi8>
  %t1 = pp.forward stage 1 microbatch 1 (%r1) : (tensor<4xi8>) -> !pp.stash<0>
  %b1 = pp.backward stage 1 microbatch 1 (%t1) : (!pp.stash<0>) -> tensor<4xi8>
  pp.send gradient stage 1 microbatch 1 to rank 0 (%b1) : tensor<4xi8>
}
