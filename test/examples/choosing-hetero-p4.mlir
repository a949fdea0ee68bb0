// Pins the comparison tables of examples/hetero-p4.mlir shown in the README's
// "Choosing a schedule" section; if this fails, update both.
// RUN: pp-opt %examples/hetero-p4.mlir --pp-compare-schedules="num-microbatches=12" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOLIMIT --match-full-lines --strict-whitespace
// RUN: pp-opt %examples/hetero-p4.mlir --pp-compare-schedules="num-microbatches=12 memory-limit=4.5M_B" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMIT --match-full-lines --strict-whitespace

// NOLIMIT:pipeline @hetero: 4 ranks, 4 stages, 12 micro-batches
// NOLIMIT-NEXT:| schedule | makespan (us) | bubble rate | span bubble rate | gap | peak memory (bytes) | peak (M_B) | per rank (M_B) | P2P messages | fits |
// NOLIMIT-NEXT:| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |
// NOLIMIT-NEXT:| gpipe | 57.6 | 0.166667 | 0.166667 | 0.122807 | 1200 | 12 | 12 12 12 12 | 72 | yes |
// NOLIMIT-NEXT:| 1f1b | 57.6 | 0.166667 | 0.166667 | 0.122807 | 400 | 4 | 4 3 2 1 | 72 | yes |
// NOLIMIT-NEXT:| interleaved-1f1b | 57.6 | 0.166667 | 0.166667 | 0.122807 | 400 | 4 | 4 3 2 1 | 72 | yes |
// NOLIMIT-NEXT:| looped-bfs | 57.6 | 0.166667 | 0.166667 | 0.122807 | 1200 | 12 | 12 12 12 12 | 72 | yes |
// NOLIMIT-NEXT:| zb-h1 | 51.6 | 0.0697674 | 0.0697674 | 0.00584795 | 400 | 4 | 4 3.5 3 2.5 | 72 | yes |
// NOLIMIT-NEXT:| zb-h2 | 51.3 | 0.0643275 | 0.0123457 | 0 | 700 | 7 | 7 6 5 4 | 72 | yes |
// NOLIMIT-NEXT:| zb-v | - | - | - | - | - | - | - | - | no: 'zb-v' needs the V placement (2 stages per rank, rank r holding stages r and 2P-1-r) |
// NOLIMIT-NEXT:| dualpipe-v | - | - | - | - | - | - | - | - | no: 'dualpipe-v' needs the V placement (2 stages per rank, rank r holding stages r and 2P-1-r) |
// NOLIMIT-NEXT:| v-half | - | - | - | - | - | - | - | - | no: 'v-half' needs the V placement (2 stages per rank, rank r holding stages r and 2P-1-r) |
// NOLIMIT-NEXT:| v-min | - | - | - | - | - | - | - | - | no: 'v-min' needs the V placement (2 stages per rank, rank r holding stages r and 2P-1-r) |
// NOLIMIT-NEXT:| auto | 51.3 | 0.0643275 | 0 | 0 | 500 | 5 | 5 5 5 5 | 72 | yes |
// NOLIMIT-NEXT:lower bound: 51.3 us (busiest rank 48, critical path 51.3, memory warm-up 34.8), gap 0 (makespan / bound - 1)
// NOLIMIT-NEXT:recommended under no memory limit: auto (makespan 51.3 us, bubble rate 0.0643275, peak 5 M_B)

// LIMIT:pipeline @hetero: 4 ranks, 4 stages, 12 micro-batches
// LIMIT-NEXT:| schedule | makespan (us) | bubble rate | span bubble rate | gap | peak memory (bytes) | peak (M_B) | per rank (M_B) | P2P messages | fits |
// LIMIT-NEXT:| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |
// LIMIT-NEXT:| gpipe | 57.6 | 0.166667 | 0.166667 | - | 1200 | 12 | 12 12 12 12 | 72 | no |
// LIMIT-NEXT:| 1f1b | 57.6 | 0.166667 | 0.166667 | 0.122807 | 400 | 4 | 4 3 2 1 | 72 | yes |
// LIMIT-NEXT:| interleaved-1f1b | 57.6 | 0.166667 | 0.166667 | 0.122807 | 400 | 4 | 4 3 2 1 | 72 | yes |
// LIMIT-NEXT:| looped-bfs | 57.6 | 0.166667 | 0.166667 | - | 1200 | 12 | 12 12 12 12 | 72 | no |
// LIMIT-NEXT:| zb-h1 | 51.6 | 0.0697674 | 0.0697674 | 0.00584795 | 400 | 4 | 4 3.5 3 2.5 | 72 | yes |
// LIMIT-NEXT:| zb-h2 | 51.3 | 0.0643275 | 0.0123457 | - | 700 | 7 | 7 6 5 4 | 72 | no |
// LIMIT-NEXT:| zb-v | - | - | - | - | - | - | - | - | no: 'zb-v' needs the V placement (2 stages per rank, rank r holding stages r and 2P-1-r) |
// LIMIT-NEXT:| dualpipe-v | - | - | - | - | - | - | - | - | no: 'dualpipe-v' needs the V placement (2 stages per rank, rank r holding stages r and 2P-1-r) |
// LIMIT-NEXT:| v-half | - | - | - | - | - | - | - | - | no: 'v-half' needs the V placement (2 stages per rank, rank r holding stages r and 2P-1-r) |
// LIMIT-NEXT:| v-min | - | - | - | - | - | - | - | - | no: 'v-min' needs the V placement (2 stages per rank, rank r holding stages r and 2P-1-r) |
// LIMIT-NEXT:| auto | 51.3 | 0.0643275 | 0 | 0 | 450 | 4.5 | 4.5 3.5 2.5 4.5 | 72 | yes |
// LIMIT-NEXT:lower bound: 51.3 us (busiest rank 48, critical path 51.3, memory warm-up 46.05), gap 0 (makespan / bound - 1)
// LIMIT-NEXT:recommended under a memory limit of 450 bytes (4.5 M_B) per rank: auto (makespan 51.3 us, bubble rate 0.0643275, peak 4.5 M_B)
