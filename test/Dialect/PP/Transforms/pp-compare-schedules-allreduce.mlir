// pp-compare-schedules{replicas=D}: every schedule also with D replicas'
// gradient all-reduces, each after its stage's last W (as
// pp-insert-allreduce places them) and all at the end, on pp-simulate's
// ring; the recommendation goes by the step with them.
// RUN: pp-opt %s --pp-compare-schedules="num-microbatches=4 report-file=-" -o /dev/null | FileCheck %s --check-prefix=ALONE
// RUN: pp-opt %s --pp-compare-schedules="num-microbatches=4 replicas=4 gradient-bytes=4000000 allreduce-bandwidth=1e12 allreduce-latency=0.5 report-file=-" -o /dev/null | FileCheck %s

// Without replicas ZB-V is the fastest pipeline (25 us).
// ALONE: recommended under no memory limit: zb-v (makespan 25 us,

// With D = 4 and 4 MB per stage each all-reduce takes 2 * 3/4 * 4e6 B /
// 1e12 B/s = 6 us plus 2 * 3 * 0.5 us = 9 us. V-Half ends each rank's
// later stage earlier, and its step with the all-reduces is the shortest.
// (The bubble rates and gaps are pp-compare-schedules.mlir's to check.)
// CHECK: 4 replicas, ring all-reduce at 1e+12 bytes/s, 0.5 us per message; each stage's all-reduce after its last W
// CHECK-NEXT: | schedule | makespan (us) | bubble rate | span bubble rate | gap | peak memory (bytes) | peak (M_B) | per rank (M_B) | P2P messages | fits | step with all-reduces (us) | reduced at the end (us) |
// CHECK: | zb-h1 | - | - | - | - | - | - | - | - | no: 'zb-h1' needs one stage per rank | - | - |
// CHECK: | zb-v | 25 | {{[0-9.]+}} | {{[0-9.]+}} | {{[0-9.]+}} | 512 | 4 | 4 4 | 16 | yes | 42 | 43 |
// CHECK-NEXT: | dualpipe-v | 26 | {{[0-9.]+}} | {{[0-9.]+}} | {{[0-9.]+}} | 640 | 5 | 5 5 | 16 | yes | 43 | 44 |
// CHECK-NEXT: | v-half | 25 | {{[0-9.]+}} | {{[0-9.]+}} | {{[0-9.]+}} | 512 | 4 | 4 4 | 16 | yes | 41 | 43 |
// CHECK-NEXT: | v-min | 27 | {{[0-9.]+}} | {{[0-9.]+}} | {{[0-9.]+}} | 384 | 3 | 3 3 | 16 | yes | 44 | 45 |
// CHECK: recommended under no memory limit: v-half (step with the all-reduces 41 us, makespan 25 us, bubble rate 0.04, peak 4 M_B)

// Bad options: exit 1 with the reason.
// RUN: not pp-opt %s --pp-compare-schedules="num-microbatches=4 replicas=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: option 'replicas' must be in [1, 4096], got 0
// RUN: not pp-opt %s --pp-compare-schedules="num-microbatches=4 replicas=2 gradient-bytes=8 allreduce-bandwidth=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BANDWIDTH
// RUN: not pp-opt %s --pp-compare-schedules="num-microbatches=4 replicas=2 gradient-bytes=8 allreduce-bandwidth=inf" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BANDWIDTH
// BANDWIDTH: error: 'allreduce-bandwidth' must be > 0 and 'allreduce-latency' >= 0, both finite
// RUN: not pp-opt %s --pp-compare-schedules="num-microbatches=4 replicas=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ABSTRACT
// ABSTRACT: error: the bytes of stage 0's gradients are unknown (an abstract stage): give them with 'gradient-bytes'
// RUN: not pp-opt %s --pp-compare-schedules="num-microbatches=4 replicas=2 gradient-bytes=8,8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: error: option 'gradient-bytes' has 2 entries, but pipeline @v has 4 stages; give one per stage, or one for every stage
// RUN: not pp-opt %s --pp-compare-schedules="num-microbatches=4 replicas=2 gradient-bytes=-8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: option 'gradient-bytes': entry 0 is -8; bytes must be >= 0

pp.pipeline @v ranks(2) activation_bytes(64) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 128, weight_stash = 64)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 128, weight_stash = 64)
  pp.stage 2 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 128, weight_stash = 64)
  pp.stage 3 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 128, weight_stash = 64)
}
