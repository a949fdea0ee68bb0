// RUN: pp-opt %s -split-input-file -convert-pp-to-runtime -verify-diagnostics

// An abstract stage: no functions to call.
pp.pipeline @p ranks(1) {
  // expected-error @below {{stage 0 must name existing forward and backward (or backward_input and backward_weight) functions; run pp-differentiate-stages first}}
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 0)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %st = pp.forward stage 0 microbatch 0 : () -> !pp.stash<0>
  pp.backward stage 0 microbatch 0 (%st) : (!pp.stash<0>) -> ()
}

// -----

// No schedule to convert.
// expected-error @below {{the module has 0 pp.schedule ops; name one with the 'schedule' option}}
module {
}

// -----

// A schedule whose ranks do not communicate: stage 0 on rank 0 finds no
// gradient from stage 1.
pp.pipeline @p ranks(2) {
  pp.stage 0 on rank 0 forward @f0 backward @b0
  pp.stage 1 on rank 1 forward @f1 backward @b1
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %y, %st = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  // expected-error @below {{the gradient of stage 1, micro-batch 0 is not available on rank 0 here; the schedule must communicate (run pp-insert-communication first)}}
  pp.backward stage 0 microbatch 0 (%st) : (!pp.stash<0>) -> ()
}
rank 1 {
  %st = pp.forward stage 1 microbatch 0 : () -> !pp.stash<0>
  %g = pp.backward stage 1 microbatch 0 (%st) : (!pp.stash<0>) -> tensor<4xi8>
}
func.func @f0(%x: tensor<4xf32>, %w: tensor<4xf32> {pp.parameter}) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @b0(%w: tensor<4xf32> {pp.parameter}, %d: tensor<4xf32> {pp.gradient}) -> tensor<4xf32> {
  return %d : tensor<4xf32>
}
func.func @f1(%x: tensor<4xf32>, %w: tensor<4xf32> {pp.parameter}) -> tensor<f32> {
  %c = arith.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}
func.func @b1(%w: tensor<4xf32> {pp.parameter}, %d: tensor<f32> {pp.gradient}) -> (tensor<4xf32>, tensor<4xf32>) {
  return %w, %w : tensor<4xf32>, tensor<4xf32>
}

// -----

// Dynamic shapes cannot be handed to the runtime.
pp.pipeline @p ranks(1) {
  // expected-error @below {{@f of stage 0 takes or returns tensor<?xf32>; stage functions must use statically shaped tensors of integers or floats}}
  pp.stage 0 on rank 0 forward @f backward @b
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %st = pp.forward stage 0 microbatch 0 : () -> !pp.stash<0>
  pp.backward stage 0 microbatch 0 (%st) : (!pp.stash<0>) -> ()
}
func.func @f(%w: tensor<?xf32> {pp.parameter}) -> tensor<f32> {
  %c = arith.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}
func.func @b(%w: tensor<?xf32> {pp.parameter}, %d: tensor<f32> {pp.gradient}) -> tensor<?xf32> {
  return %w : tensor<?xf32>
}

// -----

// The last stage's first output is the loss: one float element. Logits
// would be seeded in their first element only.
pp.pipeline @p ranks(1) {
  // expected-error @below {{the last stage's @f returns tensor<1x10xf32> as the loss; the loss must be one float element (append one with pp-append-loss)}}
  pp.stage 0 on rank 0 forward @f backward @b
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %st = pp.forward stage 0 microbatch 0 : () -> !pp.stash<0>
  pp.backward stage 0 microbatch 0 (%st) : (!pp.stash<0>) -> ()
}
func.func @f(%x: tensor<1x4xf32>, %w: tensor<4x10xf32> {pp.parameter}) -> tensor<1x10xf32> {
  %c = arith.constant dense<1.0> : tensor<1x10xf32>
  return %c : tensor<1x10xf32>
}
func.func @b(%w: tensor<4x10xf32> {pp.parameter}, %d: tensor<1x10xf32> {pp.gradient}) -> tensor<4x10xf32> {
  return %w : tensor<4x10xf32>
}


// -----

// A rank function's name is taken (here by a compact schedule's own
// functions: the error is at the schedule, without printing it).
pp.pipeline @p ranks(2) {
  pp.stage 0 on rank 0 forward @f0 backward @b0
  pp.stage 1 on rank 1 forward @f1 backward @b1
}
// expected-error @below {{'pp.schedule' op cannot create '@s_rank0': a symbol of that name already exists}}
pp.schedule @s pipeline(@p) microbatches(1) compact
rank 0 [forward 0 0, send activation 0 0 to 1, recv gradient 1 0 from 1, backward 0 0]
rank 1 [recv activation 0 0 from 0, forward 1 0, backward 1 0, send gradient 1 0 to 0]
func.func @s_rank0() {
  return
}
func.func @f0(%x: tensor<4xf32>, %w: tensor<4xf32> {pp.parameter}) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @b0(%w: tensor<4xf32> {pp.parameter}, %d: tensor<4xf32> {pp.gradient}) -> tensor<4xf32> {
  return %d : tensor<4xf32>
}
func.func @f1(%x: tensor<4xf32>, %w: tensor<4xf32> {pp.parameter}) -> tensor<f32> {
  %c = arith.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}
func.func @b1(%w: tensor<4xf32> {pp.parameter}, %d: tensor<f32> {pp.gradient}) -> (tensor<4xf32>, tensor<4xf32>) {
  return %w, %w : tensor<4xf32>, tensor<4xf32>
}
