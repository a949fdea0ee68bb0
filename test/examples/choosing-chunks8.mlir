// Pins the comparison tables of examples/chunks8.mlir shown in the README's
// "Choosing a schedule" section; if this fails, update both.
// RUN: pp-opt %examples/chunks8.mlir --pp-place-stages="ranks=4 placement=v" --pp-compare-schedules="num-microbatches=8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=V --match-full-lines --strict-whitespace
// RUN: pp-opt %examples/chunks8.mlir --pp-place-stages="ranks=4 placement=loop" --pp-compare-schedules="num-microbatches=8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOP --match-full-lines --strict-whitespace

// V:pipeline @p: 4 ranks, 8 stages, 8 micro-batches
// V-NEXT:| schedule | makespan (us) | bubble rate | span bubble rate | gap | peak memory (bytes) | peak (M_B) | per rank (M_B) | P2P messages | fits |
// V-NEXT:| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |
// V-NEXT:| gpipe | - | - | - | - | - | - | - | - | no: 'gpipe' needs one stage per rank |
// V-NEXT:| 1f1b | - | - | - | - | - | - | - | - | no: '1f1b' needs one stage per rank |
// V-NEXT:| interleaved-1f1b | - | - | - | - | - | - | - | - | no: 'interleaved-1f1b' needs the loop placement (P*V stages, stage s on rank s mod P) |
// V-NEXT:| looped-bfs | - | - | - | - | - | - | - | - | no: 'looped-bfs' needs the loop placement (P*V stages, stage s on rank s mod P) |
// V-NEXT:| zb-h1 | - | - | - | - | - | - | - | - | no: 'zb-h1' needs one stage per rank |
// V-NEXT:| zb-h2 | - | - | - | - | - | - | - | - | no: 'zb-h2' needs one stage per rank |
// V-NEXT:| zb-v | 51 | 0.0588235 | 0 | 0 | 800 | 8 | 8 8 8 8 | 96 | yes |
// V-NEXT:| dualpipe-v | 54 | 0.111111 | 0.111111 | 0.0588235 | 900 | 9 | 9 9 9 9 | 96 | yes |
// V-NEXT:| v-half | 53 | 0.0943396 | 0.0943396 | 0.0392157 | 600 | 6 | 6 6 6 6 | 96 | yes |
// V-NEXT:| v-min | 59 | 0.186441 | 0.186441 | 0.156863 | 400 | 4 | 4 4 4 4 | 96 | yes |
// V-NEXT:| auto | 51 | 0.0588235 | 0 | 0 | 800 | 8 | 8 8 8 8 | 96 | yes |
// V-NEXT:lower bound: 51 us (busiest rank 48, critical path 51, memory warm-up 43), gap 0 (makespan / bound - 1)
// V-NEXT:recommended under no memory limit: zb-v (makespan 51 us, bubble rate 0.0588235, peak 8 M_B)

// LOOP:pipeline @p: 4 ranks, 8 stages, 8 micro-batches
// LOOP-NEXT:| schedule | makespan (us) | bubble rate | span bubble rate | gap | peak memory (bytes) | peak (M_B) | per rank (M_B) | P2P messages | fits |
// LOOP-NEXT:| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |
// LOOP-NEXT:| gpipe | - | - | - | - | - | - | - | - | no: 'gpipe' needs one stage per rank |
// LOOP-NEXT:| 1f1b | - | - | - | - | - | - | - | - | no: '1f1b' needs one stage per rank |
// LOOP-NEXT:| interleaved-1f1b | 57 | 0.157895 | 0.157895 | 0.117647 | 1100 | 11 | 11 9 7 5 | 112 | yes |
// LOOP-NEXT:| looped-bfs | 57 | 0.157895 | 0.157895 | 0.117647 | 1600 | 16 | 16 16 16 16 | 112 | yes |
// LOOP-NEXT:| zb-h1 | - | - | - | - | - | - | - | - | no: 'zb-h1' needs one stage per rank |
// LOOP-NEXT:| zb-h2 | - | - | - | - | - | - | - | - | no: 'zb-h2' needs one stage per rank |
// LOOP-NEXT:| zb-v | - | - | - | - | - | - | - | - | no: 'zb-v' needs the V placement (2 stages per rank, rank r holding stages r and 2P-1-r) |
// LOOP-NEXT:| dualpipe-v | - | - | - | - | - | - | - | - | no: 'dualpipe-v' needs the V placement (2 stages per rank, rank r holding stages r and 2P-1-r) |
// LOOP-NEXT:| v-half | - | - | - | - | - | - | - | - | no: 'v-half' needs the V placement (2 stages per rank, rank r holding stages r and 2P-1-r) |
// LOOP-NEXT:| v-min | - | - | - | - | - | - | - | - | no: 'v-min' needs the V placement (2 stages per rank, rank r holding stages r and 2P-1-r) |
// LOOP-NEXT:| auto | 51 | 0.0588235 | 0 | 0 | 1100 | 11 | 11 11 10.5 9 | 112 | yes |
// LOOP-NEXT:lower bound: 51 us (busiest rank 48, critical path 51, memory warm-up 43), gap 0 (makespan / bound - 1)
// LOOP-NEXT:recommended under no memory limit: auto (makespan 51 us, bubble rate 0.0588235, peak 11 M_B)
