// RUN: pp-opt %s -split-input-file -pp-insert-communication | FileCheck %s
// RUN: pp-opt %s -split-input-file -pp-insert-communication -pp-verify-schedule -o /dev/null

// GPipe on two ranks: every activation is sent right after its forward and
// received right before the forward that uses it; gradients likewise. Both
// ranks meet their messages in the same order, so blocking send/recv cannot
// deadlock.
// CHECK-LABEL: pp.schedule @gpipe pipeline(@p) microbatches(2)
// CHECK-NEXT:  rank 0 {
// CHECK-NEXT:    %[[A0:.+]], %[[S0:.+]] = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<8>)
// CHECK-NEXT:    pp.send activation stage 0 microbatch 0 to rank 1 (%[[A0]]) : tensor<4xi8>
// CHECK-NEXT:    %[[A1:.+]], %[[S1:.+]] = pp.forward stage 0 microbatch 1 : () -> (tensor<4xi8>, !pp.stash<8>)
// CHECK-NEXT:    pp.send activation stage 0 microbatch 1 to rank 1 (%[[A1]]) : tensor<4xi8>
// CHECK-NEXT:    %[[G1:.+]] = pp.recv gradient stage 1 microbatch 1 from rank 1 : tensor<4xi8>
// CHECK-NEXT:    pp.backward stage 0 microbatch 1 (%[[G1]], %[[S1]]) : (tensor<4xi8>, !pp.stash<8>) -> ()
// CHECK-NEXT:    %[[G0:.+]] = pp.recv gradient stage 1 microbatch 0 from rank 1 : tensor<4xi8>
// CHECK-NEXT:    pp.backward stage 0 microbatch 0 (%[[G0]], %[[S0]]) : (tensor<4xi8>, !pp.stash<8>) -> ()
// CHECK-NEXT:  }
// CHECK-NEXT:  rank 1 {
// CHECK-NEXT:    %[[R0:.+]] = pp.recv activation stage 0 microbatch 0 from rank 0 : tensor<4xi8>
// CHECK-NEXT:    %[[T0:.+]] = pp.forward stage 1 microbatch 0 (%[[R0]]) : (tensor<4xi8>) -> !pp.stash<8>
// CHECK-NEXT:    %[[R1:.+]] = pp.recv activation stage 0 microbatch 1 from rank 0 : tensor<4xi8>
// CHECK-NEXT:    %[[T1:.+]] = pp.forward stage 1 microbatch 1 (%[[R1]]) : (tensor<4xi8>) -> !pp.stash<8>
// CHECK-NEXT:    %[[B1:.+]] = pp.backward stage 1 microbatch 1 (%[[T1]]) : (!pp.stash<8>) -> tensor<4xi8>
// CHECK-NEXT:    pp.send gradient stage 1 microbatch 1 to rank 0 (%[[B1]]) : tensor<4xi8>
// CHECK-NEXT:    %[[B0:.+]] = pp.backward stage 1 microbatch 0 (%[[T0]]) : (!pp.stash<8>) -> tensor<4xi8>
// CHECK-NEXT:    pp.send gradient stage 1 microbatch 0 to rank 0 (%[[B0]]) : tensor<4xi8>
// CHECK-NEXT:  }
pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1) memory(stash = 8)
}
pp.schedule @gpipe pipeline(@p) microbatches(2)
rank 0 {
  %a0, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<8>)
  %a1, %s1 = pp.forward stage 0 microbatch 1 : () -> (tensor<4xi8>, !pp.stash<8>)
  pp.backward stage 0 microbatch 1 (%s1) : (!pp.stash<8>) -> ()
  pp.backward stage 0 microbatch 0 (%s0) : (!pp.stash<8>) -> ()
}
rank 1 {
  %t0 = pp.forward stage 1 microbatch 0 : () -> !pp.stash<8>
  %t1 = pp.forward stage 1 microbatch 1 : () -> !pp.stash<8>
  %g1 = pp.backward stage 1 microbatch 1 (%t1) : (!pp.stash<8>) -> tensor<4xi8>
  %g0 = pp.backward stage 1 microbatch 0 (%t0) : (!pp.stash<8>) -> tensor<4xi8>
}

// -----

// Stages on the same rank pass values through SSA; only the rank crossing
// gets a send/recv. Schedules that already communicate are left alone.
// CHECK-LABEL: pp.schedule @mixed pipeline(@three) microbatches(1)
// CHECK-NEXT:  rank 0 {
// CHECK-NEXT:    %[[A:.+]], %{{.+}} = pp.forward stage 0 microbatch 0
// CHECK-NEXT:    %{{.+}}, %{{.+}} = pp.forward stage 1 microbatch 0 (%[[A]])
// CHECK-NEXT:    pp.send activation stage 1 microbatch 0 to rank 1
// CHECK-NEXT:    %[[G:.+]] = pp.recv gradient stage 2 microbatch 0 from rank 1
// CHECK-NEXT:    %[[G1:.+]] = pp.backward stage 1 microbatch 0 (%[[G]],
// CHECK-NEXT:    pp.backward stage 0 microbatch 0 (%[[G1]],
// CHECK-NEXT:  }
// CHECK-LABEL: pp.schedule @already pipeline(@three) microbatches(1)
// CHECK-NEXT:  rank 0 {
// CHECK-NEXT:    pp.forward stage 0 microbatch 0
// CHECK-NEXT:    pp.forward stage 1 microbatch 0
// CHECK-NEXT:    pp.send activation stage 1 microbatch 0 to rank 1
pp.pipeline @three ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 2 on rank 1 costs(forward = 1, backward_input = 1)
}
pp.schedule @mixed pipeline(@three) microbatches(1)
rank 0 {
  %a0, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  %a1, %s1 = pp.forward stage 1 microbatch 0 (%a0) : (tensor<4xi8>) -> (tensor<4xi8>, !pp.stash<0>)
  %g1 = pp.backward stage 1 microbatch 0 (%s1) : (!pp.stash<0>) -> tensor<4xi8>
  pp.backward stage 0 microbatch 0 (%g1, %s0) : (tensor<4xi8>, !pp.stash<0>) -> ()
}
rank 1 {
  %s2 = pp.forward stage 2 microbatch 0 : () -> !pp.stash<0>
  %g2 = pp.backward stage 2 microbatch 0 (%s2) : (!pp.stash<0>) -> tensor<4xi8>
}
pp.schedule @already pipeline(@three) microbatches(1)
rank 0 {
  %a0, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  %a1, %s1 = pp.forward stage 1 microbatch 0 (%a0) : (tensor<4xi8>) -> (tensor<4xi8>, !pp.stash<0>)
  pp.send activation stage 1 microbatch 0 to rank 1 (%a1) : tensor<4xi8>
  %r = pp.recv gradient stage 2 microbatch 0 from rank 1 : tensor<4xi8>
  %g1 = pp.backward stage 1 microbatch 0 (%r, %s1) : (tensor<4xi8>, !pp.stash<0>) -> tensor<4xi8>
  pp.backward stage 0 microbatch 0 (%g1, %s0) : (tensor<4xi8>, !pp.stash<0>) -> ()
}
rank 1 {
  %r = pp.recv activation stage 1 microbatch 0 from rank 0 : tensor<4xi8>
  %s2 = pp.forward stage 2 microbatch 0 (%r) : (tensor<4xi8>) -> !pp.stash<0>
  %g2 = pp.backward stage 2 microbatch 0 (%s2) : (!pp.stash<0>) -> tensor<4xi8>
  pp.send gradient stage 2 microbatch 0 to rank 0 (%g2) : tensor<4xi8>
}
