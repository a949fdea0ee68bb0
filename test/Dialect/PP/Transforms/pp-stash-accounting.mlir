// The stash-accounting option of pp-simulate, pp-schedule (and pp-plan)
// and pp-compare-schedules (docs/Schedules.md, "Memory accounting"). ZB-H1
// on two ranks, M_B = 10, M_W = 6. convert (the default): B turns M_B into
// M_W, so the peaks are the two stashes before B0 (20) and F1 with W0
// pending (16). hold: B holds its weight stash from its start and F's
// stash until its end, so rank 0 peaks at F0 F1 B0 = 10 + 10 + 6 = 26
// bytes, rank 1 at F1 B1 with micro-batch 0's weight stash = 6 + 10 + 6 =
// 22. A limit of 24 bytes refuses ZB-H1 under hold and keeps it under
// convert.
// RUN: pp-opt %s -pp-plan="schedule=zb-h1 num-microbatches=3" -pp-simulate="timeline=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONVERT
// RUN: pp-opt %s -pp-plan="schedule=zb-h1 num-microbatches=3 stash-accounting=hold" -pp-simulate="timeline=false stash-accounting=hold" -o /dev/null 2>&1 | FileCheck %s --check-prefix=HOLD
// RUN: not pp-opt %s -pp-schedule="schedule=zb-h1 num-microbatches=3 memory-limit=24 stash-accounting=hold" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: pp-opt %s -pp-plan="schedule=zb-h1 num-microbatches=3 memory-limit=24" -pp-simulate="timeline=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONVERT
// RUN: pp-opt %s -pp-compare-schedules="num-microbatches=3 memory-limit=24" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COMPARE
// RUN: not pp-opt %s -pp-schedule="schedule=zb-h1 num-microbatches=3 stash-accounting=both" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not pp-opt %s -pp-plan="schedule=zb-h1 num-microbatches=3" -pp-simulate="stash-accounting=both" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not pp-opt %s -pp-compare-schedules="num-microbatches=3 stash-accounting=both" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// HOLD: rank 0: end 10 us, busy 9 us, bubble 0.1 (10%), peak memory 26 bytes (2.6 M_B), sends 3
// HOLD-NEXT: rank 1: end 10 us, busy 9 us, bubble 0.1 (10%), peak memory 22 bytes (2.2 M_B), sends 3

// CONVERT: rank 0: end 10 us, busy 9 us, bubble 0.1 (10%), peak memory 20 bytes (2 M_B), sends 3
// CONVERT-NEXT: rank 1: end 10 us, busy 9 us, bubble 0.1 (10%), peak memory 16 bytes (1.6 M_B), sends 3

// LIMIT: error: schedule 'zb-h1' needs 26 bytes (2.6 M_B) on rank 0, 2 bytes (8.3%) more than the memory limit of 24 bytes (2.4 M_B) per rank

// COMPARE: | zb-h1 | 10 | 0.1 | 0.1 | 0 | 20 | 2 | 2 1.6 | 6 | yes |

// BAD: error: option 'stash-accounting' must be hold or convert, not 'both'

pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 10, weight_stash = 6)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 10, weight_stash = 6)
}
