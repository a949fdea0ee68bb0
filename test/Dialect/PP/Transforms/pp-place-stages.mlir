// RUN: pp-opt %s -pp-place-stages="ranks=2 placement=loop" | FileCheck %s --check-prefix=LOOP
// RUN: pp-opt %s -pp-place-stages="ranks=2 placement=v" | FileCheck %s --check-prefix=V
// RUN: pp-opt %s -pp-place-stages="placement=3,2,1,0" | FileCheck %s --check-prefix=LIST

// LOOP:      pp.pipeline @p ranks(2) {
// LOOP-NEXT:   pp.stage 0 on rank 0
// LOOP-NEXT:   pp.stage 1 on rank 1
// LOOP-NEXT:   pp.stage 2 on rank 0
// LOOP-NEXT:   pp.stage 3 on rank 1

// V:      pp.pipeline @p ranks(2) {
// V-NEXT:   pp.stage 0 on rank 0
// V-NEXT:   pp.stage 1 on rank 1
// V-NEXT:   pp.stage 2 on rank 1
// V-NEXT:   pp.stage 3 on rank 0

// LIST:      pp.pipeline @p ranks(4) {
// LIST-NEXT:   pp.stage 0 on rank 3
// LIST-NEXT:   pp.stage 1 on rank 2
// LIST-NEXT:   pp.stage 2 on rank 1
// LIST-NEXT:   pp.stage 3 on rank 0
pp.pipeline @p ranks(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
  pp.stage 2 on rank 2 costs(forward = 1, backward_input = 1)
  pp.stage 3 on rank 3 costs(forward = 1, backward_input = 1)
}
