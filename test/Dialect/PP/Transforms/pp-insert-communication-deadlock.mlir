// A compute-only schedule whose ranks wait on each other in a cycle: rank 0
// runs the backward of micro-batch 0 before the forward of micro-batch 1,
// rank 1 the other way round. No placement of messages can fix it.
// RUN: pp-opt %s -verify-diagnostics -pp-insert-communication

pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
}
// expected-error @below {{schedule @cycle deadlocks before any message is added: 2 ranks wait forever}}
pp.schedule @cycle pipeline(@p) microbatches(2)
rank 0 {
  %a0, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  // expected-note @below {{rank 0 waits at backward of stage 0 micro-batch 0}}
  pp.backward stage 0 microbatch 0 (%s0) : (!pp.stash<0>) -> ()
  %a1, %s1 = pp.forward stage 0 microbatch 1 : () -> (tensor<4xi8>, !pp.stash<0>)
  pp.backward stage 0 microbatch 1 (%s1) : (!pp.stash<0>) -> ()
}
rank 1 {
  // expected-note @below {{rank 1 waits at forward of stage 1 micro-batch 1}}
  %t1 = pp.forward stage 1 microbatch 1 : () -> !pp.stash<0>
  %g1 = pp.backward stage 1 microbatch 1 (%t1) : (!pp.stash<0>) -> tensor<4xi8>
  %t0 = pp.forward stage 1 microbatch 0 : () -> !pp.stash<0>
  %g0 = pp.backward stage 1 microbatch 0 (%t0) : (!pp.stash<0>) -> tensor<4xi8>
}
