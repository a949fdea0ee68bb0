// RUN: pp-opt %s -split-input-file -verify-diagnostics -pp-verify-schedule

// The classic 1F1B deadlock with blocking send/recv: rank 0 sends the second
// activation while rank 1 sends the first gradient; neither posts the recv
// the other waits for.
pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
}
// expected-error @below {{schedule @deadlock deadlocks: 2 ranks wait forever}}
pp.schedule @deadlock pipeline(@p) microbatches(2)
rank 0 {
  %a0, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  pp.send activation stage 0 microbatch 0 to rank 1 (%a0) : tensor<4xi8>
  %a1, %s1 = pp.forward stage 0 microbatch 1 : () -> (tensor<4xi8>, !pp.stash<0>)
  // expected-note @below {{rank 0 waits at send of activation of stage 0 micro-batch 1 to rank 1, which waits at send of gradient of stage 1 micro-batch 0 to rank 0}}
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
  // expected-note @below {{rank 1 waits at send of gradient of stage 1 micro-batch 0 to rank 0, which waits at send of activation of stage 0 micro-batch 1 to rank 1}}
  pp.send gradient stage 1 microbatch 0 to rank 0 (%b0) : tensor<4xi8>
  %r1 = pp.recv activation stage 0 microbatch 1 from rank 0 : tensor<4xi8>
  %t1 = pp.forward stage 1 microbatch 1 (%r1) : (tensor<4xi8>) -> !pp.stash<0>
  %b1 = pp.backward stage 1 microbatch 1 (%t1) : (!pp.stash<0>) -> tensor<4xi8>
  pp.send gradient stage 1 microbatch 1 to rank 0 (%b1) : tensor<4xi8>
}

// -----

// Both ranks start with a receive that the other sends only later.
pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
}
// expected-error @below {{schedule @recv_first deadlocks: 2 ranks wait forever}}
pp.schedule @recv_first pipeline(@p) microbatches(1)
rank 0 {
  // expected-note @below {{rank 0 waits at recv of gradient of stage 1 micro-batch 0 from rank 1, which waits at recv of activation of stage 0 micro-batch 0 from rank 0}}
  %g0 = pp.recv gradient stage 1 microbatch 0 from rank 1 : tensor<4xi8>
  %a0, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  pp.send activation stage 0 microbatch 0 to rank 1 (%a0) : tensor<4xi8>
  pp.backward stage 0 microbatch 0 (%g0, %s0) : (tensor<4xi8>, !pp.stash<0>) -> ()
}
rank 1 {
  // expected-note @below {{rank 1 waits at recv of activation of stage 0 micro-batch 0 from rank 0, which waits at recv of gradient of stage 1 micro-batch 0 from rank 1}}
  %r0 = pp.recv activation stage 0 microbatch 0 from rank 0 : tensor<4xi8>
  %t0 = pp.forward stage 1 microbatch 0 (%r0) : (tensor<4xi8>) -> !pp.stash<0>
  %b0 = pp.backward stage 1 microbatch 0 (%t0) : (!pp.stash<0>) -> tensor<4xi8>
  pp.send gradient stage 1 microbatch 0 to rank 0 (%b0) : tensor<4xi8>
}

// -----

// A deadlock-free schedule passes and is left unchanged.
pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
}
pp.schedule @fine pipeline(@p) microbatches(1)
rank 0 {
  %a0, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  pp.send activation stage 0 microbatch 0 to rank 1 (%a0) : tensor<4xi8>
  %g0 = pp.recv gradient stage 1 microbatch 0 from rank 1 : tensor<4xi8>
  pp.backward stage 0 microbatch 0 (%g0, %s0) : (tensor<4xi8>, !pp.stash<0>) -> ()
}
rank 1 {
  %r0 = pp.recv activation stage 0 microbatch 0 from rank 0 : tensor<4xi8>
  %t0 = pp.forward stage 1 microbatch 0 (%r0) : (tensor<4xi8>) -> !pp.stash<0>
  %b0 = pp.backward stage 1 microbatch 0 (%t0) : (!pp.stash<0>) -> tensor<4xi8>
  pp.send gradient stage 1 microbatch 0 to rank 0 (%b0) : tensor<4xi8>
}

// -----

// A compact schedule's deadlock is found the same way; the notes are at the
// schedule and name the ranks and the actions (indices from 0).
pp.pipeline @p ranks(2) activation_bytes(16) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 64, weight_stash = 0)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1) memory(stash = 64, weight_stash = 0)
}
// expected-error @below {{schedule @s deadlocks: 2 ranks wait forever}}
// expected-note @below {{rank 0 waits at recv of gradient of stage 1 micro-batch 0 from rank 1, which waits at recv of activation of stage 0 micro-batch 0 from rank 0 (action 1 of rank 0)}}
// expected-note @below {{rank 1 waits at recv of activation of stage 0 micro-batch 0 from rank 0, which waits at recv of gradient of stage 1 micro-batch 0 from rank 1 (action 0 of rank 1)}}
pp.schedule @s pipeline(@p) microbatches(1) compact
rank 0 [forward 0 0, recv gradient 1 0 from 1, send activation 0 0 to 1, backward 0 0]
rank 1 [recv activation 0 0 from 0, forward 1 0, backward 1 0, send gradient 1 0 to 0]
