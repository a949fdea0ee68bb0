// pp-schedule replaces an earlier schedule of the same name, but never
// another kind of symbol.
// RUN: pp-opt %s -split-input-file -verify-diagnostics -pp-schedule="schedule=gpipe num-microbatches=1"

// expected-error @below {{cannot name the schedule @p_gpipe: that symbol is a 'func.func'}}
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
// expected-note @below {{the symbol is defined here}}
func.func private @p_gpipe()

// -----

// A pipeline whose name is another pipeline's schedule name is not erased.
// expected-error @below {{cannot name the schedule @p_gpipe: that symbol is a 'pp.pipeline'}}
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
// expected-note @below {{the symbol is defined here}}
pp.pipeline @p_gpipe ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
