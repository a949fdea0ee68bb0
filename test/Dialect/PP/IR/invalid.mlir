// RUN: pp-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

// expected-error @below {{needs between 1 and 2147483647 ranks, got 0}}
pp.pipeline @p ranks(0) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}

// -----

// expected-error @below {{latency must be a finite non-negative time in microseconds}}
pp.pipeline @p ranks(1) latency(-1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}

// -----

pp.pipeline @p ranks(2) {
  // expected-error @below {{rank 2 is out of range: the pipeline has 2 ranks}}
  pp.stage 0 on rank 2 costs(forward = 1, backward_input = 1)
}

// -----

pp.pipeline @p ranks(2) {
  // expected-note @below {{first placement here}}
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  // expected-error @below {{stage 0 is placed on two ranks: 0 and 1}}
  pp.stage 0 on rank 1 costs(forward = 1, backward_input = 1)
}

// -----

pp.pipeline @p ranks(1) {
  // expected-note @below {{first definition here}}
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  // expected-error @below {{stage 0 is defined twice}}
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}

// -----

// expected-error @below {{stage indices must be 0 .. 1 without gaps, but stage 1 is missing}}
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 2 on rank 0 costs(forward = 1, backward_input = 1)
}

// -----

// expected-error @below {{needs at least one pp.stage}}
pp.pipeline @p ranks(1) {
}

// -----

pp.pipeline @p ranks(1) {
  // expected-error @below {{abstract stage 0 must give its costs}}
  pp.stage 0 on rank 0 memory(stash = 4)
}

// -----

pp.pipeline @p ranks(1) {
  // expected-error @below {{cost 'backward_input' must be a finite non-negative time in microseconds}}
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = -2)
}

// -----

pp.pipeline @p ranks(1) {
  // expected-error @below {{memory sizes must be non-negative}}
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = -4)
}

// -----

func.func private @f()
pp.pipeline @p ranks(1) {
  // expected-error @below {{stage 0 names backward functions but no 'forward' function}}
  pp.stage 0 on rank 0 backward @f
}

// -----

func.func private @f()
pp.pipeline @p ranks(1) {
  // expected-error @below {{stage 0 names both a fused 'backward' and split 'backward_input'/'backward_weight' functions; give one form}}
  pp.stage 0 on rank 0 forward @f backward @f backward_input @f backward_weight @f
}

// -----

func.func private @f()
pp.pipeline @p ranks(1) {
  // expected-error @below {{stage 0 names one of 'backward_input' and 'backward_weight'; a split backward needs both}}
  pp.stage 0 on rank 0 forward @f backward_input @f
}

// -----

func.func private @f()
pp.pipeline @p ranks(1) {
  // expected-error @below {{'backward' refers to unknown symbol @nope}}
  pp.stage 0 on rank 0 forward @f backward @nope
}

// -----

pp.pipeline @q ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
pp.pipeline @p ranks(1) {
  // expected-error @below {{'forward' must refer to a function, but @q is a 'pp.pipeline'}}
  pp.stage 0 on rank 0 forward @q backward @q
}

// -----

pp.pipeline @p ranks(1) {
  // expected-error @below {{unknown key 'fwd'; expected one of: forward, backward_input, backward_weight}}
  pp.stage 0 on rank 0 costs(fwd = 1)
}

// -----

pp.pipeline @p ranks(1) {
  // expected-error @below {{key 'forward' given twice}}
  pp.stage 0 on rank 0 costs(forward = 1, forward = 2)
}

// -----

pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  // expected-error @below {{'foo.bar' op is not allowed in a pp.pipeline; only pp.stage}}
  "foo.bar"() : () -> ()
}

// -----

// expected-error @below {{stash size must be non-negative, got -1 bytes}}
func.func private @f(!pp.stash<-1>)

// -----

// expected-error @below {{refers to @nope, which is not a pp.pipeline}}
pp.schedule @s pipeline(@nope) microbatches(1)
rank 0 {
}

// -----

pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
// expected-error @below {{needs between 1 and 2147483647 micro-batches, got 0}}
pp.schedule @s pipeline(@p) microbatches(0)
rank 0 {
}

// -----

pp.pipeline @p ranks(2) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
}
// expected-error @below {{has 1 rank regions, but pipeline @p has 2 ranks}}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
}

// -----

pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(1)
// expected-error @below {{expected the region of rank 0, got rank 1 (ranks come in order)}}
rank 1 {
}

// -----

pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  // expected-error @below {{stage 1 is out of range: pipeline @p has 1 stages}}
  %s = pp.forward stage 1 microbatch 0 : () -> !pp.stash<0>
}

// -----

pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(2)
rank 0 {
  // expected-error @below {{micro-batch 2 is out of range: the schedule has 2 micro-batches}}
  %s = pp.forward stage 0 microbatch 2 : () -> !pp.stash<0>
}

// -----

pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %a, %s = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  // expected-error @below {{peer rank 5 is out of range: pipeline @p has 2 ranks}}
  pp.send activation stage 0 microbatch 0 to rank 5 (%a) : tensor<4xi8>
}
rank 1 {
}
