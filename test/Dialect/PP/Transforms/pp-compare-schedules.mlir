// Every schedule on one heterogeneous pipeline (the last stage is 1.5x
// slower, W is split, latency 0.1 us), under a limit of 4.5 M_B per rank.
// auto matches ZB-H2's makespan within the limit (ZB-H1 needs 4 M_B under
// the default stash accounting, convert); schedules that need another
// placement say so.
// RUN: pp-opt %s -pp-compare-schedules="num-microbatches=12 memory-limit=4.5M_B" -o /dev/null 2>&1 | FileCheck %s --match-full-lines --strict-whitespace

// CHECK:pipeline @zb: 4 ranks, 4 stages, 12 micro-batches
// CHECK-NEXT:| schedule | makespan (us) | bubble rate | span bubble rate | gap | peak memory (bytes) | peak (M_B) | per rank (M_B) | P2P messages | fits |
// CHECK-NEXT:| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |
// CHECK-NEXT:| gpipe | 57.6 | 0.166667 | 0.166667 | - | 1200 | 12 | 12 12 12 12 | 72 | no |
// CHECK-NEXT:| 1f1b | 57.6 | 0.166667 | 0.166667 | 0.122807 | 400 | 4 | 4 3 2 1 | 72 | yes |
// CHECK-NEXT:| interleaved-1f1b | 57.6 | 0.166667 | 0.166667 | 0.122807 | 400 | 4 | 4 3 2 1 | 72 | yes |
// CHECK-NEXT:| looped-bfs | 57.6 | 0.166667 | 0.166667 | - | 1200 | 12 | 12 12 12 12 | 72 | no |
// CHECK-NEXT:| zb-h1 | 51.6 | 0.0697674 | 0.0697674 | 0.00584795 | 400 | 4 | 4 3.5 3 2.5 | 72 | yes |
// CHECK-NEXT:| zb-h2 | 51.3 | 0.0643275 | 0.0123457 | - | 700 | 7 | 7 6 5 4 | 72 | no |
// CHECK-NEXT:| zb-v | - | - | - | - | - | - | - | - | no: 'zb-v' needs the V placement (2 stages per rank, rank r holding stages r and 2P-1-r) |
// CHECK-NEXT:| dualpipe-v | - | - | - | - | - | - | - | - | no: 'dualpipe-v' needs the V placement (2 stages per rank, rank r holding stages r and 2P-1-r) |
// CHECK-NEXT:| v-half | - | - | - | - | - | - | - | - | no: 'v-half' needs the V placement (2 stages per rank, rank r holding stages r and 2P-1-r) |
// CHECK-NEXT:| v-min | - | - | - | - | - | - | - | - | no: 'v-min' needs the V placement (2 stages per rank, rank r holding stages r and 2P-1-r) |
// CHECK-NEXT:| auto | 51.3 | 0.0643275 | 0 | 0 | 450 | 4.5 | 4.5 3.5 2.5 4.5 | 72 | yes |
// CHECK-NEXT:lower bound: 51.3 us (busiest rank 48, critical path 51.3, memory warm-up 46.05), gap 0 (makespan / bound - 1)
// CHECK-NEXT:recommended under a memory limit of 450 bytes (4.5 M_B) per rank: auto (makespan 51.3 us, bubble rate 0.0643275, peak 4.5 M_B)

pp.pipeline @zb ranks(4) latency(0.1) activation_bytes(1024) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 100, weight_stash = 50)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 100, weight_stash = 50)
  pp.stage 2 on rank 2 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 100, weight_stash = 50)
  pp.stage 3 on rank 3 costs(forward = 1.5, backward_input = 1.5, backward_weight = 1) memory(stash = 100, weight_stash = 50)
}
