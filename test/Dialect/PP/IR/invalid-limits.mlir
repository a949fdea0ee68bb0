// Limits (32-bit indices, finite times, schedules far smaller than S x M),
// the fused/split form of concrete stages, gradient types, program order
// across ranks, and the cap on reported problems.
// RUN: pp-opt %s -split-input-file -verify-diagnostics

// expected-error @below {{'pp.pipeline' op needs between 1 and 2147483647 ranks, got 4294967297}}
pp.pipeline @p ranks(4294967297) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
// -----
// expected-error @below {{'pp.pipeline' op latency must be a finite non-negative time in microseconds}}
pp.pipeline @p ranks(1) attributes {latency = 0x7FF8000000000000 : f64} {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
// -----
pp.pipeline @p ranks(1) {
  // expected-error @below {{'pp.stage' op cost 'forward' must be a finite non-negative time in microseconds}}
  "pp.stage"() <{index = 0 : i64, rank = 0 : i64, forward_time = 0x7FF0000000000000 : f64, backward_input_time = 1.0 : f64}> : () -> ()
}
// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
// expected-error @below {{'pp.schedule' op runs 1 forwards, but 1 stages x 1000000000 micro-batches need 1000000000}}
pp.schedule @s pipeline(@p) microbatches(1000000000)
rank 0 {
  %s = pp.forward stage 0 microbatch 0 : () -> !pp.stash<0>
  pp.backward stage 0 microbatch 0 (%s) : (!pp.stash<0>) -> ()
}
// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
// expected-error @below {{'pp.schedule' op forward of stage 0 micro-batch 1 never runs}}
// expected-error @below {{'pp.schedule' op backward of stage 0 micro-batch 1 never runs}}
// expected-error @below {{'pp.schedule' op forward of stage 0 micro-batch 2 never runs}}
// expected-error @below {{'pp.schedule' op backward of stage 0 micro-batch 2 never runs}}
// expected-error @below {{'pp.schedule' op forward of stage 0 micro-batch 3 never runs}}
// expected-error @below {{'pp.schedule' op backward of stage 0 micro-batch 3 never runs}}
// expected-error @below {{'pp.schedule' op forward of stage 0 micro-batch 4 never runs}}
// expected-error @below {{'pp.schedule' op backward of stage 0 micro-batch 4 never runs}}
// expected-error @below {{'pp.schedule' op has 30 more problems not shown}}
pp.schedule @s pipeline(@p) microbatches(20)
rank 0 {
  %s = pp.forward stage 0 microbatch 0 : () -> !pp.stash<0>
  pp.backward stage 0 microbatch 0 (%s) : (!pp.stash<0>) -> ()
}
// -----
func.func private @f()
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 forward @f backward @f
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %s = pp.forward stage 0 microbatch 0 : () -> !pp.stash<0>
  // expected-error @below {{'pp.backward_input' op runs a split backward, but stage 0 names only a fused 'backward' function; use pp.backward}}
  %w = pp.backward_input stage 0 microbatch 0 (%s) : (!pp.stash<0>) -> !pp.stash<0>
  pp.backward_weight stage 0 microbatch 0 (%w) : !pp.stash<0>
}
// -----
pp.pipeline @p ranks(1) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 0 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %a0, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<4xf32>, !pp.stash<0>)
  %s1 = pp.forward stage 1 microbatch 0 (%a0) : (tensor<4xf32>) -> !pp.stash<0>
  // expected-error @below {{'pp.backward' op makes the gradient of stage 1 micro-batch 0 as 'tensor<2x2xf32>', but the activation it is the gradient of (output of stage 0) is 'tensor<4xf32>'}}
  %g1 = pp.backward stage 1 microbatch 0 (%s1) : (!pp.stash<0>) -> tensor<2x2xf32>
  pp.backward stage 0 microbatch 0 (%g1, %s0) : (tensor<2x2xf32>, !pp.stash<0>) -> ()
}
// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 4, weight_stash = 2)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %s = pp.forward stage 0 microbatch 0 : () -> !pp.stash<4>
  // expected-error @below {{'pp.backward_input' op weight stash is '!pp.stash<3>', but the stage keeps 2 bytes}}
  %w = pp.backward_input stage 0 microbatch 0 (%s) : (!pp.stash<4>) -> !pp.stash<3>
  pp.backward_weight stage 0 microbatch 0 (%w) : !pp.stash<3>
}
// -----
pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %a0, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  pp.send activation stage 0 microbatch 0 to rank 1 (%a0) : tensor<4xi8>
  pp.backward stage 0 microbatch 0 (%s0) : (!pp.stash<0>) -> ()
}
rank 1 {
  %r = pp.recv activation stage 0 microbatch 0 from rank 0 : tensor<4xi8>
  // expected-error @below {{use of undeclared SSA value name}}
  %t0 = pp.forward stage 1 microbatch 0 (%a0) : (tensor<4xi8>) -> !pp.stash<0>
  %g0 = pp.backward stage 1 microbatch 0 (%t0) : (!pp.stash<0>) -> tensor<4xi8>
}
