// RUN: pp-opt %s --pp-plan="schedule=1f1b num-microbatches=2" --pp-simulate -o /dev/null 2>&1 | FileCheck %s --check-prefix=COMPACT
// RUN: pp-opt %s --pp-plan="schedule=1f1b num-microbatches=2" --pp-simulate="timeline=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: pp-opt %s --pp-plan="schedule=1f1b num-microbatches=2" --pp-simulate="timeline=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE

// Above 16 ranks the report leaves the ASCII timeline out unless asked
// (a 64-rank, 1024-micro-batch timeline is about 1 MB of text); the
// figures are printed either way.
// COMPACT: makespan
// COMPACT: timeline: left out for 17 ranks (more than 16); timeline=true prints it
// FULL-NOT: timeline: left out
// FULL: Rank 16: __
// NONE-NOT: timeline

pp.pipeline @p ranks(17) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
  pp.stage 2 on rank 2 costs(forward = 1, backward_input = 1)
  pp.stage 3 on rank 3 costs(forward = 1, backward_input = 1)
  pp.stage 4 on rank 4 costs(forward = 1, backward_input = 1)
  pp.stage 5 on rank 5 costs(forward = 1, backward_input = 1)
  pp.stage 6 on rank 6 costs(forward = 1, backward_input = 1)
  pp.stage 7 on rank 7 costs(forward = 1, backward_input = 1)
  pp.stage 8 on rank 8 costs(forward = 1, backward_input = 1)
  pp.stage 9 on rank 9 costs(forward = 1, backward_input = 1)
  pp.stage 10 on rank 10 costs(forward = 1, backward_input = 1)
  pp.stage 11 on rank 11 costs(forward = 1, backward_input = 1)
  pp.stage 12 on rank 12 costs(forward = 1, backward_input = 1)
  pp.stage 13 on rank 13 costs(forward = 1, backward_input = 1)
  pp.stage 14 on rank 14 costs(forward = 1, backward_input = 1)
  pp.stage 15 on rank 15 costs(forward = 1, backward_input = 1)
  pp.stage 16 on rank 16 costs(forward = 1, backward_input = 1)
}
