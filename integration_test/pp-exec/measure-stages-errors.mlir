// --measure-stages: partial stages, and every error (exit status 1).

// A stage with only a forward keeps its B and W; an abstract stage keeps
// all of its costs.
// RUN: pp-exec %s --measure-stages=a --repetitions=1 -o %t.mlir | FileCheck %s --check-prefix=PARTIAL
// RUN: FileCheck %s --check-prefix=PARTIAL-IR --input-file=%t.mlir
// PARTIAL:      @a: median of 1 run after a warm-up, in microseconds
// PARTIAL-NEXT: stage  rank            F            B            W
// PARTIAL-NEXT:     0     0 {{ *[0-9]+\.[0-9][0-9][0-9]}} - -{{$}}
// PARTIAL-NEXT:     1     1 - - -  (abstract, not measured)
// PARTIAL-IR: pp.stage 0 on rank 0 forward @a0 costs(forward = {{[1-9][0-9.e+-]*|0\.[0-9]+}}, backward_input = 3, backward_weight = 2)
// PARTIAL-IR: pp.stage 1 on rank 1 costs(forward = 5, backward_input = 6, backward_weight = 1)

pp.pipeline @a ranks(2) {
  pp.stage 0 on rank 0 forward @a0 costs(forward = 7, backward_input = 3, backward_weight = 2)
  pp.stage 1 on rank 1 costs(forward = 5, backward_input = 6, backward_weight = 1)
}

pp.pipeline @b ranks(1) {
  pp.stage 0 on rank 0 forward @declared
}

func.func @a0(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func private @declared(tensor<4xf32>) -> tensor<4xf32>

// Which pipeline.
// RUN: not pp-exec %s --measure-stages 2>&1 | FileCheck %s --check-prefix=SEVERAL
// SEVERAL: pp-exec: error: the module has 2 pipelines (@a, @b); name one with --measure-stages=NAME
// RUN: not pp-exec %s --measure-stages=nope 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: pp-exec: error: no pipeline @nope in the module (pipelines: @a, @b)
// RUN: not pp-exec %S/run.mlir --measure-stages 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: pp-exec: error: the module has no pp.pipeline to measure

// Stage functions: one that does not exist (the verifier's error when
// parsing), one that cannot be run.
// RUN: sed 's/forward @a0 costs/forward @missing costs/' %s > %t.missing.mlir
// RUN: not pp-exec %t.missing.mlir --measure-stages=a 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: 'pp.stage' op 'forward' refers to unknown symbol @missing
// MISSING: pp-exec: error: cannot parse
// RUN: not pp-exec %s --measure-stages=b 2>&1 | FileCheck %s --check-prefix=DECL
// DECL: error: @declared is a declaration without a body; pp-exec runs functions defined in the module
// DECL: error: cannot measure stage 0 of @b: its forward function @declared cannot be run

// Options.
// RUN: not pp-exec %s --measure-stages=a --repetitions=0 2>&1 | FileCheck %s --check-prefix=REPS
// REPS: pp-exec: error: --repetitions must be at least 1
// RUN: not pp-exec %s --entry=a0 --compare=a0 --repetitions=3 2>&1 | FileCheck %s --check-prefix=REPS-ALONE
// REPS-ALONE: pp-exec: error: --repetitions is only used with --measure-stages or when running one function
// RUN: not pp-exec %s --entry=a0 -o %t.out 2>&1 | FileCheck %s --check-prefix=OUT-ALONE
// OUT-ALONE: pp-exec: error: -o is only used with --measure-stages
// RUN: not pp-exec %s --measure-stages=a --entry=a0 2>&1 | FileCheck %s --check-prefix=COMBINED
// COMBINED: pp-exec: error: --measure-stages cannot be combined with --entry
