// Option errors of pp-place-stages: bad values at the module, placements
// that do not fit the pipeline at the pipeline.
// RUN: not pp-opt %s -pp-place-stages="ranks=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not pp-opt %s -pp-place-stages="placement=v pipeline=q" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-PIPELINE
// RUN: not pp-opt %s -pp-place-stages="ranks=-1 placement=v" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RANKS
// RUN: not pp-opt %s -pp-place-stages="placement=x" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: not pp-opt %s -pp-place-stages="placement=0,1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIST-LENGTH
// RUN: not pp-opt %s -pp-place-stages="placement=0,1,2,9" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIST-RANGE
// RUN: not pp-opt %s -pp-place-stages="ranks=3 placement=loop" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOT-MULTIPLE
// RUN: not pp-opt %s -pp-place-stages="ranks=1 placement=v" -o /dev/null 2>&1 | FileCheck %s --check-prefix=V-NOT-TWO

// MISSING: :[[@LINE+3]]:1: error: option 'placement' is required: loop, v, or a comma-separated rank per stage
// NO-PIPELINE: :[[@LINE+2]]:1: error: no pp.pipeline named @q
// RANKS: :[[@LINE+1]]:1: error: option 'ranks' must be in [0, 2147483647], got -1
module {
// TEXT: :[[@LINE+5]]:1: error: option 'placement' must be 'loop', 'v' or a comma-separated rank per stage, got 'x'
// LIST-LENGTH: :[[@LINE+4]]:1: error: the placement names 2 ranks, but the pipeline has 4 stages
// LIST-RANGE: :[[@LINE+3]]:1: error: rank 9 in the placement is out of range: the pipeline has 4 ranks
// NOT-MULTIPLE: :[[@LINE+2]]:1: error: placement 'loop' needs a multiple of 3 stages, but the pipeline has 4
// V-NOT-TWO: :[[@LINE+1]]:1: error: the V placement puts exactly 2 stages on each rank, not 4
pp.pipeline @p ranks(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
  pp.stage 2 on rank 2 costs(forward = 1, backward_input = 1)
  pp.stage 3 on rank 3 costs(forward = 1, backward_input = 1)
}
}
