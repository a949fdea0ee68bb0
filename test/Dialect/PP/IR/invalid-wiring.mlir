// More verifier errors: pipeline sizes and indices, foreign ops in rank
// regions, and values wired to the wrong action.
// RUN: pp-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

// expected-error @below {{'pp.pipeline' op activation_bytes must be non-negative}}
pp.pipeline @p ranks(1) activation_bytes(-4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
// -----
pp.pipeline @p ranks(1) {
  // expected-error @below {{'pp.stage' op stage index must be in [0, 2147483647], got -1}}
  pp.stage -1 on rank 0 costs(forward = 1, backward_input = 1)
}
// -----
pp.pipeline @p ranks(1) {
  // expected-error @below {{'pp.stage' op rank must be in [0, 2147483647], got -1}}
  pp.stage 0 on rank -1 costs(forward = 1, backward_input = 1)
}
// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  // expected-error @below {{'foo.bar' op is not a pipeline action; rank regions hold only pp.forward, pp.backward, pp.backward_input, pp.backward_weight, pp.send, pp.recv and pp.allreduce}}
  "foo.bar"() : () -> ()
}
// -----
pp.pipeline @p ranks(1) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 0 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  // expected-error @below {{'pp.forward' op needs an output: the next stage consumes it}}
  %s0 = pp.forward stage 0 microbatch 0 : () -> !pp.stash<0>
  %s1 = pp.forward stage 1 microbatch 0 : () -> !pp.stash<0>
  %g1 = pp.backward stage 1 microbatch 0 (%s1) : (!pp.stash<0>) -> tensor<4xi8>
  pp.backward stage 0 microbatch 0 (%g1, %s0) : (tensor<4xi8>, !pp.stash<0>) -> ()
}
// -----
pp.pipeline @p ranks(1) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 0 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %a0, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  %s1 = pp.forward stage 1 microbatch 0 (%a0) : (tensor<4xi8>) -> !pp.stash<0>
  %g1 = pp.backward stage 1 microbatch 0 (%s1) : (!pp.stash<0>) -> tensor<4xi8>
  // expected-error @below {{'pp.backward' op needs a gradient: the backward of stage 1 runs on the same rank}}
  pp.backward stage 0 microbatch 0 (%s0) : (!pp.stash<0>) -> ()
}
// -----
pp.pipeline @p ranks(1) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %s0 = pp.forward stage 0 microbatch 0 : () -> !pp.stash<0>
  // expected-error @below {{recv of activation of stage 0 micro-batch 0 from rank 0 on rank 0 carries the output of the last stage, which no stage consumes}}
  // expected-error @below {{recv of activation of stage 0 micro-batch 0 from rank 0 on rank 0 has no matching send on rank 0}}
  %x = pp.recv activation stage 0 microbatch 0 from rank 0 : tensor<4xi8>
  pp.backward stage 0 microbatch 0 (%x, %s0) : (tensor<4xi8>, !pp.stash<0>) -> ()
}
// -----
pp.pipeline @p ranks(1) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 0 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %a0, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  %s1 = pp.forward stage 1 microbatch 0 (%a0) : (tensor<4xi8>) -> !pp.stash<0>
  // expected-error @below {{'pp.backward' op must not have an output gradient: the last stage starts from its loss}}
  %g1 = pp.backward stage 1 microbatch 0 (%a0, %s1) : (tensor<4xi8>, !pp.stash<0>) -> tensor<4xi8>
  pp.backward stage 0 microbatch 0 (%g1, %s0) : (tensor<4xi8>, !pp.stash<0>) -> ()
}
// -----
// A recv's type is the type its send sends.
pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %a, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  // expected-note @below {{the send is here}}
  pp.send activation stage 0 microbatch 0 to rank 1 (%a) : tensor<4xi8>
  %g = pp.recv gradient stage 1 microbatch 0 from rank 1 : tensor<4xi8>
  pp.backward stage 0 microbatch 0 (%g, %s0) : (tensor<4xi8>, !pp.stash<0>) -> ()
}
rank 1 {
  // expected-error @below {{'pp.recv' op receives 'tensor<8xi8>', but rank 0 sends 'tensor<4xi8>' for activation of stage 0 micro-batch 0}}
  %x = pp.recv activation stage 0 microbatch 0 from rank 0 : tensor<8xi8>
  %s1 = pp.forward stage 1 microbatch 0 (%x) : (tensor<8xi8>) -> !pp.stash<0>
  %d = pp.backward stage 1 microbatch 0 (%s1) : (!pp.stash<0>) -> tensor<4xi8>
  pp.send gradient stage 1 microbatch 0 to rank 0 (%d) : tensor<4xi8>
}
