// Option errors of pp-compare-schedules.
// RUN: not pp-opt %s -pp-compare-schedules="memory-limit=2M_B" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MICROBATCHES
// RUN: not pp-opt %s -pp-compare-schedules="num-microbatches=2 pipeline=q" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-PIPELINE
// RUN: not pp-opt %s -pp-compare-schedules="num-microbatches=2 group-size=-1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GROUP-SIZE
// RUN: not pp-opt %s -pp-compare-schedules="num-microbatches=2 memory-limit=lots" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMIT

// MICROBATCHES: :[[@LINE+3]]:1: error: option 'num-microbatches' is required and must be in [1, 2147483647], got 0
// NO-PIPELINE: :[[@LINE+2]]:1: error: no pp.pipeline named @q
// GROUP-SIZE: :[[@LINE+1]]:1: error: option 'group-size' must be in [0, 2147483647], got -1
module {
// LIMIT: :[[@LINE+1]]:1: error: option 'memory-limit' must be bytes or a multiple of M_B such as '4M_B', got 'lots'
pp.pipeline @p ranks(2) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 10)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1) memory(stash = 10)
}
}
