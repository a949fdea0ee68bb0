// Pins the seed configuration examples/p4-m4.mlir: P = 4, M = 4, unit costs.
// Bubble rate (zero-bubble paper) (P-1)/(M+P-1) = 3/7; Megatron's bubble
// over ideal time (P-1)/M = 3/4; makespan 2(M+P-1) = 14 us.
// GPipe keeps M = 4 stashes on every rank; 1F1B min(P-r, M) on rank r.
//
// RUN: pp-opt %examples/p4-m4.mlir -pp-plan="schedule=gpipe num-microbatches=4" -pp-simulate -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPIPE --match-full-lines --strict-whitespace
// RUN: pp-opt %examples/p4-m4.mlir -pp-plan="schedule=1f1b num-microbatches=4" -pp-simulate -o /dev/null 2>&1 | FileCheck %s --check-prefix=1F1B --match-full-lines --strict-whitespace

// GPIPE:schedule @p4_gpipe (pipeline @p4)
// GPIPE-NEXT:pipeline: 4 ranks, 4 stages, 4 micro-batches
// GPIPE-NEXT:rank 0: end 14 us, busy 8 us, bubble 0.428571 (42.8571%), peak memory 4194304 bytes (4 M_B), sends 4
// GPIPE-NEXT:rank 1: end 13 us, busy 8 us, bubble 0.428571 (42.8571%), peak memory 4194304 bytes (4 M_B), sends 8
// GPIPE-NEXT:rank 2: end 12 us, busy 8 us, bubble 0.428571 (42.8571%), peak memory 4194304 bytes (4 M_B), sends 8
// GPIPE-NEXT:rank 3: end 11 us, busy 8 us, bubble 0.428571 (42.8571%), peak memory 4194304 bytes (4 M_B), sends 4
// GPIPE-NEXT:makespan: 14 us
// GPIPE-NEXT:ideal time: 8 us
// GPIPE-NEXT:bubble rate: 0.428571 (42.8571%)
// GPIPE-NEXT:bubble / ideal time: 0.75
// GPIPE-NEXT:max rank span: 14 us (one step when steps overlap)
// GPIPE-NEXT:span bubble rate: 0.428571 (42.8571%)
// GPIPE-NEXT:lower bound: 14 us (busiest rank 8, critical path 14, memory warm-up 11), gap 0 (makespan / bound - 1)
// GPIPE-NEXT:Rank 0: F0 F1 F2 F3 __ __ __ __ __ __ B3 B2 B1 B0
// GPIPE-NEXT:Rank 1: __ F0 F1 F2 F3 __ __ __ __ B3 B2 B1 B0
// GPIPE-NEXT:Rank 2: __ __ F0 F1 F2 F3 __ __ B3 B2 B1 B0
// GPIPE-NEXT:Rank 3: __ __ __ F0 F1 F2 F3 B3 B2 B1 B0

// 1F1B:schedule @p4_1f1b (pipeline @p4)
// 1F1B-NEXT:pipeline: 4 ranks, 4 stages, 4 micro-batches
// 1F1B-NEXT:rank 0: end 14 us, busy 8 us, bubble 0.428571 (42.8571%), peak memory 4194304 bytes (4 M_B), sends 4
// 1F1B-NEXT:rank 1: end 13 us, busy 8 us, bubble 0.428571 (42.8571%), peak memory 3145728 bytes (3 M_B), sends 8
// 1F1B-NEXT:rank 2: end 12 us, busy 8 us, bubble 0.428571 (42.8571%), peak memory 2097152 bytes (2 M_B), sends 8
// 1F1B-NEXT:rank 3: end 11 us, busy 8 us, bubble 0.428571 (42.8571%), peak memory 1048576 bytes (1 M_B), sends 4
// 1F1B-NEXT:makespan: 14 us
// 1F1B-NEXT:ideal time: 8 us
// 1F1B-NEXT:bubble rate: 0.428571 (42.8571%)
// 1F1B-NEXT:bubble / ideal time: 0.75
// 1F1B-NEXT:max rank span: 14 us (one step when steps overlap)
// 1F1B-NEXT:span bubble rate: 0.428571 (42.8571%)
// 1F1B-NEXT:lower bound: 14 us (busiest rank 8, critical path 14, memory warm-up 11), gap 0 (makespan / bound - 1)
// 1F1B-NEXT:Rank 0: F0 F1 F2 F3 __ __ __ B0 __ B1 __ B2 __ B3
// 1F1B-NEXT:Rank 1: __ F0 F1 F2 __ __ B0 F3 B1 __ B2 __ B3
// 1F1B-NEXT:Rank 2: __ __ F0 F1 __ B0 F2 B1 F3 B2 __ B3
// 1F1B-NEXT:Rank 3: __ __ __ F0 B0 F1 B1 F2 B2 F3 B3
