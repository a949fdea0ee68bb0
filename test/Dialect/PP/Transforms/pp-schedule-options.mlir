// Errors of pp-schedule that depend on its options: missing or bad values,
// and schedule tables (schedule=file:PATH) that cannot be used.
// RUN: not pp-opt %s -split-input-file -pp-schedule="num-microbatches=4" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCHEDULE
// RUN: not pp-opt %s -split-input-file -pp-schedule="schedule=foo num-microbatches=4" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not pp-opt %s -split-input-file -pp-schedule="schedule=gpipe" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MICROBATCHES
// RUN: not pp-opt %s -split-input-file -pp-schedule="schedule=1f1b num-microbatches=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MICROBATCHES
// RUN: not pp-opt %s -split-input-file -pp-schedule="schedule=1f1b num-microbatches=-3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MICROBATCHES
// RUN: not pp-opt %s -split-input-file -pp-schedule="schedule=1f1b num-microbatches=4294967297" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MICROBATCHES
// RUN: not pp-opt %s -split-input-file -pp-schedule="schedule=gpipe num-microbatches=2 pipeline=nope" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-PIPELINE
// RUN: not pp-opt %s -split-input-file -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/does-not-exist.csv" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FILE-MISSING
// RUN: not pp-opt %s -split-input-file -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/bad-cell.csv" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FILE-BAD-CELL
// RUN: not pp-opt %s -split-input-file -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/gpipe-p2-m2.csv num-microbatches=4" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FILE-MICROBATCHES
// RUN: not pp-opt %s -split-input-file -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/backward-first.csv" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FILE-INVALID
// RUN: not pp-opt %s -split-input-file -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/deadlock-comms.csv" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FILE-DEADLOCK
// RUN: not pp-opt %s -split-input-file -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/gpipe-p2-m2.csv" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FILE-SHAPE

// SCHEDULE: :[[@LINE+4]]:1: error: option 'schedule' is required; known schedules: gpipe, 1f1b, interleaved-1f1b, looped-bfs, zb-h1, zb-h2, zb-v, dualpipe-v, v-half, v-min, auto
// MICROBATCHES: :[[@LINE+3]]:1: error: option 'num-microbatches' is required and must be in [1, 2147483647]
// NO-PIPELINE: :[[@LINE+2]]:1: error: no pp.pipeline named @nope
// FILE-MISSING: :[[@LINE+1]]:1: error: {{.*}}does-not-exist.csv': No such file or directory
module {
  // UNKNOWN: :[[@LINE+1]]:3: error: schedule 'foo' is unknown; known schedules: gpipe, 1f1b, interleaved-1f1b, looped-bfs, zb-h1, zb-h2, zb-v, dualpipe-v, v-half, v-min, auto
  pp.pipeline @p ranks(1) {
    pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  }
}

// -----

// A table that cannot be read: the error names rank (row) and step (column).
// FILE-BAD-CELL: :[[@LINE+3]]:1: error: {{.*}}bad-cell.csv': rank 1, step 3: cannot parse action 'X9'
// num-microbatches, if given, must be the table's.
// FILE-MICROBATCHES: :[[@LINE+1]]:1: error: option 'num-microbatches' is 4, but schedule table '{{.*}}gpipe-p2-m2.csv' has 2 micro-batches; give the table's or leave the option out
module {
  pp.pipeline @p ranks(2) {
    pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
    pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
  }
}

// -----

// A table is verified before it is used; problems name rank and step.
// FILE-INVALID: :[[@LINE+4]]:1: error: {{.*}}backward-first.csv', rank 1, step 1: backward of stage 1 micro-batch 0 runs before its forward on rank 1
// A compute_comms table must run to the end under blocking send/recv.
// FILE-DEADLOCK: :[[@LINE+2]]:1: error: {{.*}}deadlock-comms.csv', rank 0, step 0: deadlock under blocking send/recv: rank 0 waits at recv of gradient of stage 1 micro-batch 0 from rank 1
// FILE-DEADLOCK: :[[@LINE+1]]:1: error: {{.*}}deadlock-comms.csv', rank 1, step 0: deadlock under blocking send/recv: rank 1 waits at recv of activation of stage 0 micro-batch 0 from rank 0
pp.pipeline @p ranks(2) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
}

// -----

// The table must place every stage where the pipeline does.
// FILE-SHAPE: :[[@LINE+1]]:1: error: {{.*}}gpipe-p2-m2.csv' places stage 0 on rank 0, but pipeline @p places it on rank 1
pp.pipeline @p ranks(2) {
  pp.stage 0 on rank 1 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 0 costs(forward = 1, backward_input = 1)
}

// -----

// The table must have the pipeline's stages.
// FILE-SHAPE: :[[@LINE+1]]:1: error: {{.*}}gpipe-p2-m2.csv' has 2 stages, but pipeline @p has 3
pp.pipeline @p ranks(3) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
  pp.stage 2 on rank 2 costs(forward = 1, backward_input = 1)
}
