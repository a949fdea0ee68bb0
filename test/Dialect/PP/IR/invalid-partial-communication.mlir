// A schedule that communicates explicitly must carry every value that
// crosses ranks: here the activation of micro-batch 1 has no send/recv.
// RUN: pp-opt %s -verify-diagnostics -o /dev/null

pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
}
pp.schedule @partial pipeline(@p) microbatches(2)
rank 0 {
  %a0, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  pp.send activation stage 0 microbatch 0 to rank 1 (%a0) : tensor<4xi8>
  %a1, %s1 = pp.forward stage 0 microbatch 1 : () -> (tensor<4xi8>, !pp.stash<0>)
  %g0 = pp.recv gradient stage 1 microbatch 0 from rank 1 : tensor<4xi8>
  pp.backward stage 0 microbatch 0 (%g0, %s0) : (tensor<4xi8>, !pp.stash<0>) -> ()
  %g1 = pp.recv gradient stage 1 microbatch 1 from rank 1 : tensor<4xi8>
  pp.backward stage 0 microbatch 1 (%g1, %s1) : (tensor<4xi8>, !pp.stash<0>) -> ()
}
rank 1 {
  %r0 = pp.recv activation stage 0 microbatch 0 from rank 0 : tensor<4xi8>
  %t0 = pp.forward stage 1 microbatch 0 (%r0) : (tensor<4xi8>) -> !pp.stash<0>
  %b0 = pp.backward stage 1 microbatch 0 (%t0) : (!pp.stash<0>) -> tensor<4xi8>
  pp.send gradient stage 1 microbatch 0 to rank 0 (%b0) : tensor<4xi8>
  // expected-error @below {{'pp.forward' op forward of stage 1 micro-batch 1 on rank 1 needs the activation of stage 0 micro-batch 1 from rank 0, but no send/recv carries it; the schedule communicates explicitly, so every value that crosses ranks needs one}}
  %t1 = pp.forward stage 1 microbatch 1 : () -> !pp.stash<0>
  %b1 = pp.backward stage 1 microbatch 1 (%t1) : (!pp.stash<0>) -> tensor<4xi8>
  pp.send gradient stage 1 microbatch 1 to rank 0 (%b1) : tensor<4xi8>
}
