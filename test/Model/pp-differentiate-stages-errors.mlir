// RUN: pp-opt %s -split-input-file -pp-differentiate-stages -verify-diagnostics

// A stage that already has its backward.
pp.pipeline @p ranks(1) {
  // expected-error @below {{stage 0 must name only a forward function (as pp-partition makes it), but it already has backward functions}}
  pp.stage 0 on rank 0 forward @f backward @g
}
func.func @f(%w: tensor<4xf32> {pp.parameter}) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @g(%w: tensor<4xf32>, %d: tensor<4xf32>) -> tensor<4xf32> {
  return %d : tensor<4xf32>
}

// -----

// An abstract stage.
pp.pipeline @p ranks(1) {
  // expected-error @below {{stage 0 must name only a forward function (as pp-partition makes it), but it has no forward function}}
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1)
}

// -----

// The forward function is a declaration.
pp.pipeline @p ranks(1) {
  // expected-error @below {{the forward function @f of stage 0 must have a body of one block}}
  pp.stage 0 on rank 0 forward @f
}
func.func private @f(tensor<4xf32>) -> tensor<4xf32>

// -----

// Stage 1 does not take what stage 0 returns.
pp.pipeline @p ranks(2) {
  pp.stage 0 on rank 0 forward @f0
  // expected-error @below {{stage 1 must take the outputs of the previous stage (tensor<4xf32>) first, then its parameters (marked pp.parameter), but @f1 takes (tensor<8xf32>, tensor<8xf32>)}}
  pp.stage 1 on rank 1 forward @f1
}
func.func @f0(%w: tensor<4xf32> {pp.parameter}) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @f1(%x: tensor<8xf32>, %w: tensor<8xf32> {pp.parameter}) -> tensor<8xf32> {
  return %w : tensor<8xf32>
}

// -----

// An op without a derivative rule: pp-autodiff's error at the op, then
// which stage it is in.
pp.pipeline @p ranks(1) {
  // expected-error @below {{cannot differentiate stage 0 (@f)}}
  pp.stage 0 on rank 0 forward @f
}
func.func @f(%w: tensor<4xf32> {pp.parameter}) -> tensor<4xf32> {
  // expected-error @below {{cannot differentiate call to @timer}}
  %t = func.call @timer(%w) : (tensor<4xf32>) -> tensor<4xf32>
  return %t : tensor<4xf32>
}
func.func private @timer(tensor<4xf32>) -> tensor<4xf32>

// -----

// A name the pass would create is taken.
pp.pipeline @p ranks(1) {
  // expected-error @below {{cannot create '@f_forward': a symbol of that name already exists}}
  pp.stage 0 on rank 0 forward @f
}
func.func @f(%w: tensor<4xf32> {pp.parameter}) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @f_forward() {
  return
}

// -----

// expected-error @below {{the module has 0 pp.pipeline ops; name one with the 'pipeline' option}}
module {
}
