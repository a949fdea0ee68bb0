// Pins the seed configuration examples/p4-m16.mlir: P = 4, M = 16, unit costs.
// Bubble rate (zero-bubble paper) (P-1)/(M+P-1) = 3/19; Megatron's bubble
// over ideal time (P-1)/M = 3/16; makespan 2(M+P-1) = 38 us.
// GPipe keeps M = 16 stashes on every rank; 1F1B min(P-r, M) on rank r.
//
// RUN: pp-opt %examples/p4-m16.mlir -pp-plan="schedule=gpipe num-microbatches=16" -pp-simulate -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPIPE --match-full-lines --strict-whitespace
// RUN: pp-opt %examples/p4-m16.mlir -pp-plan="schedule=1f1b num-microbatches=16" -pp-simulate -o /dev/null 2>&1 | FileCheck %s --check-prefix=1F1B --match-full-lines --strict-whitespace

// GPIPE:schedule @p4_gpipe (pipeline @p4)
// GPIPE-NEXT:pipeline: 4 ranks, 4 stages, 16 micro-batches
// GPIPE-NEXT:rank 0: end 38 us, busy 32 us, bubble 0.157895 (15.7895%), peak memory 16777216 bytes (16 M_B), sends 16
// GPIPE-NEXT:rank 1: end 37 us, busy 32 us, bubble 0.157895 (15.7895%), peak memory 16777216 bytes (16 M_B), sends 32
// GPIPE-NEXT:rank 2: end 36 us, busy 32 us, bubble 0.157895 (15.7895%), peak memory 16777216 bytes (16 M_B), sends 32
// GPIPE-NEXT:rank 3: end 35 us, busy 32 us, bubble 0.157895 (15.7895%), peak memory 16777216 bytes (16 M_B), sends 16
// GPIPE-NEXT:makespan: 38 us
// GPIPE-NEXT:ideal time: 32 us
// GPIPE-NEXT:bubble rate: 0.157895 (15.7895%)
// GPIPE-NEXT:bubble / ideal time: 0.1875
// GPIPE-NEXT:max rank span: 38 us (one step when steps overlap)
// GPIPE-NEXT:span bubble rate: 0.157895 (15.7895%)
// GPIPE-NEXT:lower bound: 38 us (busiest rank 32, critical path 38, memory warm-up 23), gap 0 (makespan / bound - 1)
// GPIPE-NEXT:Rank 0: F0  F1  F2  F3  F4  F5  F6  F7  F8  F9  F10 F11 F12 F13 F14 F15 ___ ___ ___ ___ ___ ___ B15 B14 B13 B12 B11 B10 B9  B8  B7  B6  B5  B4  B3  B2  B1  B0
// GPIPE-NEXT:Rank 1: ___ F0  F1  F2  F3  F4  F5  F6  F7  F8  F9  F10 F11 F12 F13 F14 F15 ___ ___ ___ ___ B15 B14 B13 B12 B11 B10 B9  B8  B7  B6  B5  B4  B3  B2  B1  B0
// GPIPE-NEXT:Rank 2: ___ ___ F0  F1  F2  F3  F4  F5  F6  F7  F8  F9  F10 F11 F12 F13 F14 F15 ___ ___ B15 B14 B13 B12 B11 B10 B9  B8  B7  B6  B5  B4  B3  B2  B1  B0
// GPIPE-NEXT:Rank 3: ___ ___ ___ F0  F1  F2  F3  F4  F5  F6  F7  F8  F9  F10 F11 F12 F13 F14 F15 B15 B14 B13 B12 B11 B10 B9  B8  B7  B6  B5  B4  B3  B2  B1  B0

// 1F1B:schedule @p4_1f1b (pipeline @p4)
// 1F1B-NEXT:pipeline: 4 ranks, 4 stages, 16 micro-batches
// 1F1B-NEXT:rank 0: end 38 us, busy 32 us, bubble 0.157895 (15.7895%), peak memory 4194304 bytes (4 M_B), sends 16
// 1F1B-NEXT:rank 1: end 37 us, busy 32 us, bubble 0.157895 (15.7895%), peak memory 3145728 bytes (3 M_B), sends 32
// 1F1B-NEXT:rank 2: end 36 us, busy 32 us, bubble 0.157895 (15.7895%), peak memory 2097152 bytes (2 M_B), sends 32
// 1F1B-NEXT:rank 3: end 35 us, busy 32 us, bubble 0.157895 (15.7895%), peak memory 1048576 bytes (1 M_B), sends 16
// 1F1B-NEXT:makespan: 38 us
// 1F1B-NEXT:ideal time: 32 us
// 1F1B-NEXT:bubble rate: 0.157895 (15.7895%)
// 1F1B-NEXT:bubble / ideal time: 0.1875
// 1F1B-NEXT:max rank span: 38 us (one step when steps overlap)
// 1F1B-NEXT:span bubble rate: 0.157895 (15.7895%)
// 1F1B-NEXT:lower bound: 38 us (busiest rank 32, critical path 38, memory warm-up 35), gap 0 (makespan / bound - 1)
// 1F1B-NEXT:Rank 0: F0  F1  F2  F3  ___ ___ ___ B0  F4  B1  F5  B2  F6  B3  F7  B4  F8  B5  F9  B6  F10 B7  F11 B8  F12 B9  F13 B10 F14 B11 F15 B12 ___ B13 ___ B14 ___ B15
// 1F1B-NEXT:Rank 1: ___ F0  F1  F2  ___ ___ B0  F3  B1  F4  B2  F5  B3  F6  B4  F7  B5  F8  B6  F9  B7  F10 B8  F11 B9  F12 B10 F13 B11 F14 B12 F15 B13 ___ B14 ___ B15
// 1F1B-NEXT:Rank 2: ___ ___ F0  F1  ___ B0  F2  B1  F3  B2  F4  B3  F5  B4  F6  B5  F7  B6  F8  B7  F9  B8  F10 B9  F11 B10 F12 B11 F13 B12 F14 B13 F15 B14 ___ B15
// 1F1B-NEXT:Rank 3: ___ ___ ___ F0  B0  F1  B1  F2  B2  F3  B3  F4  B4  F5  B5  F6  B6  F7  B7  F8  B8  F9  B9  F10 B10 F11 B11 F12 B12 F13 B13 F14 B14 F15 B15
