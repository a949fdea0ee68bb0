// Schedules that break the rules of pp.schedule's verifier, one per split.
// RUN: pp-opt %s -split-input-file -verify-diagnostics
pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 2)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 2)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  // expected-error @below {{'pp.backward' op backward of stage 0 micro-batch 0 runs before its forward on rank 0}}
  pp.backward stage 0 microbatch 0 (%s) : (!pp.stash<8>) -> ()
  %a, %s = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<8>)
}
rank 1 {
  %s = pp.forward stage 1 microbatch 0 : () -> !pp.stash<8>
  %g = pp.backward stage 1 microbatch 0 (%s) : (!pp.stash<8>) -> tensor<4xi8>
}
// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 2)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %a = pp.forward stage 0 microbatch 0 : () -> !pp.stash<8>
  // expected-error @below {{'pp.backward_weight' op W of stage 0 micro-batch 0 runs before its B on rank 0}}
  pp.backward_weight stage 0 microbatch 0 (%w) : !pp.stash<2>
  %w = pp.backward_input stage 0 microbatch 0 (%a) : (!pp.stash<8>) -> !pp.stash<2>
}
// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %a = pp.forward stage 0 microbatch 0 : () -> !pp.stash<0>
  // expected-error @below {{'pp.forward' op forward of stage 0 micro-batch 0 is run twice on rank 0}}
  %b = pp.forward stage 0 microbatch 0 : () -> !pp.stash<0>
  pp.backward stage 0 microbatch 0 (%a) : (!pp.stash<0>) -> ()
}
// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
// expected-error @below {{'pp.schedule' op backward of stage 0 micro-batch 1 never runs}}
pp.schedule @s pipeline(@p) microbatches(2)
rank 0 {
  %a = pp.forward stage 0 microbatch 0 : () -> !pp.stash<0>
  pp.backward stage 0 microbatch 0 (%a) : (!pp.stash<0>) -> ()
  %b = pp.forward stage 0 microbatch 1 : () -> !pp.stash<0>
}
// -----
pp.pipeline @p ranks(2) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %a, %s = pp.forward stage 0 microbatch 0 : () -> (tensor<0xi8>, !pp.stash<0>)
  // expected-error @below {{'pp.backward' op backward of stage 0 micro-batch 0 runs before backward of stage 1 micro-batch 0, whose gradient it needs, on rank 0}}
  pp.backward stage 0 microbatch 0 (%s) : (!pp.stash<0>) -> ()
  // expected-error @below {{'pp.forward' op stage 1 is placed on rank 1 but scheduled on rank 0 (forward of stage 1 micro-batch 0)}}
  %s1 = pp.forward stage 1 microbatch 0 : () -> !pp.stash<0>
  // expected-error @below {{'pp.backward' op stage 1 is placed on rank 1 but scheduled on rank 0 (backward of stage 1 micro-batch 0)}}
  %g = pp.backward stage 1 microbatch 0 (%s1) : (!pp.stash<0>) -> tensor<0xi8>
}
rank 1 {
}
// -----
pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %a, %s = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  // expected-error @below {{'pp.send' op send of activation of stage 0 micro-batch 0 from rank 0 to rank 1 has no matching recv on rank 1}}
  pp.send activation stage 0 microbatch 0 to rank 1 (%a) : tensor<4xi8>
  // expected-error @below {{'pp.backward' op backward of stage 0 micro-batch 0 on rank 0 needs the gradient of stage 1 micro-batch 0 from rank 1, but no send/recv carries it; the schedule communicates explicitly, so every value that crosses ranks needs one}}
  pp.backward stage 0 microbatch 0 (%s) : (!pp.stash<0>) -> ()
}
rank 1 {
  %s = pp.forward stage 1 microbatch 0 : () -> !pp.stash<0>
  %g = pp.backward stage 1 microbatch 0 (%s) : (!pp.stash<0>) -> tensor<4xi8>
}
// -----
pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %a, %s = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  // expected-error @below {{'pp.backward' op backward of stage 0 micro-batch 0 on rank 0 needs the gradient of stage 1 micro-batch 0 from rank 1, but no send/recv carries it; the schedule communicates explicitly, so every value that crosses ranks needs one}}
  pp.backward stage 0 microbatch 0 (%s) : (!pp.stash<0>) -> ()
}
rank 1 {
  // expected-error @below {{'pp.recv' op recv of activation of stage 0 micro-batch 0 from rank 0 on rank 1 has no matching send on rank 0}}
  %r = pp.recv activation stage 0 microbatch 0 from rank 0 : tensor<4xi8>
  %s = pp.forward stage 1 microbatch 0 (%r) : (tensor<4xi8>) -> !pp.stash<0>
  %g = pp.backward stage 1 microbatch 0 (%s) : (!pp.stash<0>) -> tensor<4xi8>
}
// -----
pp.pipeline @p ranks(3) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
  pp.stage 2 on rank 2 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %a, %s = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  // expected-error @below {{'pp.send' op send of activation of stage 0 micro-batch 0 from rank 0 to rank 2 goes to rank 2, but its consumer stage 1 is placed on rank 1}}
  pp.send activation stage 0 microbatch 0 to rank 2 (%a) : tensor<4xi8>
  // expected-error @below {{'pp.backward' op backward of stage 0 micro-batch 0 on rank 0 needs the gradient of stage 1 micro-batch 0 from rank 1, but no send/recv carries it; the schedule communicates explicitly, so every value that crosses ranks needs one}}
  pp.backward stage 0 microbatch 0 (%s) : (!pp.stash<0>) -> ()
}
rank 1 {
  %a, %s = pp.forward stage 1 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  // expected-error @below {{'pp.backward' op backward of stage 1 micro-batch 0 on rank 1 needs the gradient of stage 2 micro-batch 0 from rank 2, but no send/recv carries it; the schedule communicates explicitly, so every value that crosses ranks needs one}}
  %g = pp.backward stage 1 microbatch 0 (%s) : (!pp.stash<0>) -> tensor<4xi8>
}
rank 2 {
  // expected-error @below {{'pp.recv' op recv of activation of stage 0 micro-batch 0 from rank 0 on rank 2 goes to rank 2, but its consumer stage 1 is placed on rank 1}}
  %r = pp.recv activation stage 0 microbatch 0 from rank 0 : tensor<4xi8>
  // expected-error @below {{'pp.forward' op forward of stage 2 micro-batch 0 on rank 2 needs the activation of stage 1 micro-batch 0 from rank 1, but no send/recv carries it; the schedule communicates explicitly, so every value that crosses ranks needs one}}
  %s = pp.forward stage 2 microbatch 0 : () -> !pp.stash<0>
  %g = pp.backward stage 2 microbatch 0 (%s) : (!pp.stash<0>) -> tensor<4xi8>
}
// -----
pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %a, %s = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  // expected-error @below {{'pp.send' op send of activation of stage 0 micro-batch 0 from rank 0 to rank 1 has no matching recv on rank 1 (rank 1 has recv of gradient of stage 0 micro-batch 0 from rank 0 on rank 1 instead)}}
  pp.send activation stage 0 microbatch 0 to rank 1 (%a) : tensor<4xi8>
  // expected-error @below {{'pp.backward' op backward of stage 0 micro-batch 0 on rank 0 needs the gradient of stage 1 micro-batch 0 from rank 1, but no send/recv carries it; the schedule communicates explicitly, so every value that crosses ranks needs one}}
  pp.backward stage 0 microbatch 0 (%s) : (!pp.stash<0>) -> ()
}
rank 1 {
  // expected-error @below {{'pp.recv' op recv of gradient of stage 0 micro-batch 0 from rank 0 on rank 1 carries the input gradient of the first stage, which no stage consumes}}
  // expected-error @below {{'pp.recv' op recv of gradient of stage 0 micro-batch 0 from rank 0 on rank 1 has no matching send on rank 0 (rank 0 has send of activation of stage 0 micro-batch 0 from rank 0 to rank 1 instead)}}
  %r = pp.recv gradient stage 0 microbatch 0 from rank 0 : tensor<4xi8>
  %s = pp.forward stage 1 microbatch 0 : () -> !pp.stash<0>
  %g = pp.backward stage 1 microbatch 0 (%s) : (!pp.stash<0>) -> tensor<4xi8>
}
// -----
pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %a, %s = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  pp.send activation stage 0 microbatch 0 to rank 1 (%a) : tensor<4xi8>
  // expected-error @below {{'pp.backward' op backward of stage 0 micro-batch 0 on rank 0 needs the gradient of stage 1 micro-batch 0 from rank 1, but no send/recv carries it; the schedule communicates explicitly, so every value that crosses ranks needs one}}
  pp.backward stage 0 microbatch 0 (%s) : (!pp.stash<0>) -> ()
}
rank 1 {
  %r = pp.recv activation stage 0 microbatch 0 from rank 0 : tensor<8xi8>
  %s = pp.forward stage 1 microbatch 0 : () -> !pp.stash<0>
  %g = pp.backward stage 1 microbatch 0 (%s) : (!pp.stash<0>) -> tensor<4xi8>
}
// -----
pp.pipeline @p ranks(1) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  // expected-error @below {{'pp.forward' op must not have an output: it runs the last stage}}
  %a, %s = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<8>)
  pp.backward stage 0 microbatch 0 (%s) : (!pp.stash<8>) -> ()
}
// -----
pp.pipeline @p ranks(1) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  // expected-error @below {{'pp.forward' op stash is '!pp.stash<4>', but the stage keeps 8 bytes}}
  %s = pp.forward stage 0 microbatch 0 : () -> !pp.stash<4>
  pp.backward stage 0 microbatch 0 (%s) : (!pp.stash<4>) -> ()
}
// -----
pp.pipeline @p ranks(1) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 0 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %a, %s = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  // expected-error @below {{'pp.forward' op needs an input: the forward of stage 0 runs on the same rank}}
  %s1 = pp.forward stage 1 microbatch 0 : () -> !pp.stash<0>
  %g = pp.backward stage 1 microbatch 0 (%s1) : (!pp.stash<0>) -> tensor<4xi8>
  pp.backward stage 0 microbatch 0 (%g, %s) : (tensor<4xi8>, !pp.stash<0>) -> ()
}
// -----
pp.pipeline @p ranks(1) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 0 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(2)
rank 0 {
  %a0, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  %a1, %s1 = pp.forward stage 0 microbatch 1 : () -> (tensor<4xi8>, !pp.stash<0>)
  // expected-error @below {{'pp.forward' op input must be the activation of stage 0 micro-batch 0 (from that action on this rank or a pp.recv of it)}}
  %t0 = pp.forward stage 1 microbatch 0 (%a1) : (tensor<4xi8>) -> !pp.stash<0>
  %t1 = pp.forward stage 1 microbatch 1 (%a1) : (tensor<4xi8>) -> !pp.stash<0>
  %g0 = pp.backward stage 1 microbatch 0 (%t0) : (!pp.stash<0>) -> tensor<4xi8>
  %g1 = pp.backward stage 1 microbatch 1 (%t1) : (!pp.stash<0>) -> tensor<4xi8>
  pp.backward stage 0 microbatch 0 (%g0, %s0) : (tensor<4xi8>, !pp.stash<0>) -> ()
  pp.backward stage 0 microbatch 1 (%g1, %s1) : (tensor<4xi8>, !pp.stash<0>) -> ()
}
// -----
pp.pipeline @p ranks(1) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(2)
rank 0 {
  %s0 = pp.forward stage 0 microbatch 0 : () -> !pp.stash<0>
  %s1 = pp.forward stage 0 microbatch 1 : () -> !pp.stash<0>
  // expected-error @below {{'pp.backward' op stash must come from the forward of stage 0 micro-batch 0}}
  pp.backward stage 0 microbatch 0 (%s1) : (!pp.stash<0>) -> ()
  pp.backward stage 0 microbatch 1 (%s1) : (!pp.stash<0>) -> ()
}
// -----
pp.pipeline @p ranks(1) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(2)
rank 0 {
  %s0 = pp.forward stage 0 microbatch 0 : () -> !pp.stash<0>
  %s1 = pp.forward stage 0 microbatch 1 : () -> !pp.stash<0>
  %w0 = pp.backward_input stage 0 microbatch 0 (%s0) : (!pp.stash<0>) -> !pp.stash<0>
  %w1 = pp.backward_input stage 0 microbatch 1 (%s1) : (!pp.stash<0>) -> !pp.stash<0>
  // expected-error @below {{'pp.backward_weight' op weight stash must come from the backward_input of stage 0 micro-batch 0}}
  pp.backward_weight stage 0 microbatch 0 (%w1) : !pp.stash<0>
  pp.backward_weight stage 0 microbatch 1 (%w1) : !pp.stash<0>
}
// -----
pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(2)
rank 0 {
  %a0, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  %a1, %s1 = pp.forward stage 0 microbatch 1 : () -> (tensor<4xi8>, !pp.stash<0>)
  pp.send activation stage 0 microbatch 0 to rank 1 (%a1) : tensor<4xi8>
  // expected-error @below {{'pp.backward' op backward of stage 0 micro-batch 0 on rank 0 needs the gradient of stage 1 micro-batch 0 from rank 1, but no send/recv carries it; the schedule communicates explicitly, so every value that crosses ranks needs one}}
  pp.backward stage 0 microbatch 0 (%s0) : (!pp.stash<0>) -> ()
  // expected-error @below {{'pp.backward' op backward of stage 0 micro-batch 1 on rank 0 needs the gradient of stage 1 micro-batch 1 from rank 1, but no send/recv carries it; the schedule communicates explicitly, so every value that crosses ranks needs one}}
  pp.backward stage 0 microbatch 1 (%s1) : (!pp.stash<0>) -> ()
}
rank 1 {
  %r = pp.recv activation stage 0 microbatch 0 from rank 0 : tensor<4xi8>
  %t0 = pp.forward stage 1 microbatch 0 (%r) : (tensor<4xi8>) -> !pp.stash<0>
  // expected-error @below {{'pp.forward' op forward of stage 1 micro-batch 1 on rank 1 needs the activation of stage 0 micro-batch 1 from rank 0, but no send/recv carries it; the schedule communicates explicitly, so every value that crosses ranks needs one}}
  %t1 = pp.forward stage 1 microbatch 1 : () -> !pp.stash<0>
  %g0 = pp.backward stage 1 microbatch 0 (%t0) : (!pp.stash<0>) -> tensor<4xi8>
  %g1 = pp.backward stage 1 microbatch 1 (%t1) : (!pp.stash<0>) -> tensor<4xi8>
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
  // expected-error @below {{'pp.backward' op backward of stage 0 micro-batch 0 on rank 0 needs the gradient of stage 1 micro-batch 0 from rank 1, but no send/recv carries it; the schedule communicates explicitly, so every value that crosses ranks needs one}}
  pp.backward stage 0 microbatch 0 (%s0) : (!pp.stash<0>) -> ()
}
rank 1 {
  // expected-error @below {{'pp.forward' op forward of stage 1 micro-batch 0 runs before recv of activation of stage 0 micro-batch 0 from rank 0 on rank 1, which delivers its input}}
  %t0 = pp.forward stage 1 microbatch 0 (%r) : (tensor<4xi8>) -> !pp.stash<0>
  %r = pp.recv activation stage 0 microbatch 0 from rank 0 : tensor<4xi8>
  %g0 = pp.backward stage 1 microbatch 0 (%t0) : (!pp.stash<0>) -> tensor<4xi8>
}
// -----
pp.pipeline @p ranks(1) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %s0 = pp.forward stage 0 microbatch 0 : () -> !pp.stash<0>
  // expected-error @below {{'pp.backward' op must not have an input gradient: stage 0 has no input}}
  %g = pp.backward stage 0 microbatch 0 (%s0) : (!pp.stash<0>) -> tensor<4xi8>
}

// -----

// A schedule that communicates explicitly must carry every value that
// crosses ranks: here the activation of micro-batch 1 has no send/recv.
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
