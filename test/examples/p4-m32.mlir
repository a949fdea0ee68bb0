// Pins the seed configuration examples/p4-m32.mlir: P = 4, M = 32, unit costs.
// Bubble rate (zero-bubble paper) (P-1)/(M+P-1) = 3/35; Megatron's bubble
// over ideal time (P-1)/M = 3/32; makespan 2(M+P-1) = 70 us.
// GPipe keeps M = 32 stashes on every rank; 1F1B min(P-r, M) on rank r.
//
// RUN: pp-opt %examples/p4-m32.mlir -pp-plan="schedule=gpipe num-microbatches=32" -pp-simulate -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPIPE --match-full-lines --strict-whitespace
// RUN: pp-opt %examples/p4-m32.mlir -pp-plan="schedule=1f1b num-microbatches=32" -pp-simulate -o /dev/null 2>&1 | FileCheck %s --check-prefix=1F1B --match-full-lines --strict-whitespace

// GPIPE:schedule @p4_gpipe (pipeline @p4)
// GPIPE-NEXT:pipeline: 4 ranks, 4 stages, 32 micro-batches
// GPIPE-NEXT:rank 0: end 70 us, busy 64 us, bubble 0.0857143 (8.57143%), peak memory 33554432 bytes (32 M_B), sends 32
// GPIPE-NEXT:rank 1: end 69 us, busy 64 us, bubble 0.0857143 (8.57143%), peak memory 33554432 bytes (32 M_B), sends 64
// GPIPE-NEXT:rank 2: end 68 us, busy 64 us, bubble 0.0857143 (8.57143%), peak memory 33554432 bytes (32 M_B), sends 64
// GPIPE-NEXT:rank 3: end 67 us, busy 64 us, bubble 0.0857143 (8.57143%), peak memory 33554432 bytes (32 M_B), sends 32
// GPIPE-NEXT:makespan: 70 us
// GPIPE-NEXT:ideal time: 64 us
// GPIPE-NEXT:bubble rate: 0.0857143 (8.57143%)
// GPIPE-NEXT:bubble / ideal time: 0.09375
// GPIPE-NEXT:max rank span: 70 us (one step when steps overlap)
// GPIPE-NEXT:span bubble rate: 0.0857143 (8.57143%)
// GPIPE-NEXT:lower bound: 70 us (busiest rank 64, critical path 70, memory warm-up 39), gap 0 (makespan / bound - 1)
// GPIPE-NEXT:Rank 0: F0  F1  F2  F3  F4  F5  F6  F7  F8  F9  F10 F11 F12 F13 F14 F15 F16 F17 F18 F19 F20 F21 F22 F23 F24 F25 F26 F27 F28 F29 F30 F31 ___ ___ ___ ___ ___ ___ B31 B30 B29 B28 B27 B26 B25 B24 B23 B22 B21 B20 B19 B18 B17 B16 B15 B14 B13 B12 B11 B10 B9  B8  B7  B6  B5  B4  B3  B2  B1  B0
// GPIPE-NEXT:Rank 1: ___ F0  F1  F2  F3  F4  F5  F6  F7  F8  F9  F10 F11 F12 F13 F14 F15 F16 F17 F18 F19 F20 F21 F22 F23 F24 F25 F26 F27 F28 F29 F30 F31 ___ ___ ___ ___ B31 B30 B29 B28 B27 B26 B25 B24 B23 B22 B21 B20 B19 B18 B17 B16 B15 B14 B13 B12 B11 B10 B9  B8  B7  B6  B5  B4  B3  B2  B1  B0
// GPIPE-NEXT:Rank 2: ___ ___ F0  F1  F2  F3  F4  F5  F6  F7  F8  F9  F10 F11 F12 F13 F14 F15 F16 F17 F18 F19 F20 F21 F22 F23 F24 F25 F26 F27 F28 F29 F30 F31 ___ ___ B31 B30 B29 B28 B27 B26 B25 B24 B23 B22 B21 B20 B19 B18 B17 B16 B15 B14 B13 B12 B11 B10 B9  B8  B7  B6  B5  B4  B3  B2  B1  B0
// GPIPE-NEXT:Rank 3: ___ ___ ___ F0  F1  F2  F3  F4  F5  F6  F7  F8  F9  F10 F11 F12 F13 F14 F15 F16 F17 F18 F19 F20 F21 F22 F23 F24 F25 F26 F27 F28 F29 F30 F31 B31 B30 B29 B28 B27 B26 B25 B24 B23 B22 B21 B20 B19 B18 B17 B16 B15 B14 B13 B12 B11 B10 B9  B8  B7  B6  B5  B4  B3  B2  B1  B0

// 1F1B:schedule @p4_1f1b (pipeline @p4)
// 1F1B-NEXT:pipeline: 4 ranks, 4 stages, 32 micro-batches
// 1F1B-NEXT:rank 0: end 70 us, busy 64 us, bubble 0.0857143 (8.57143%), peak memory 4194304 bytes (4 M_B), sends 32
// 1F1B-NEXT:rank 1: end 69 us, busy 64 us, bubble 0.0857143 (8.57143%), peak memory 3145728 bytes (3 M_B), sends 64
// 1F1B-NEXT:rank 2: end 68 us, busy 64 us, bubble 0.0857143 (8.57143%), peak memory 2097152 bytes (2 M_B), sends 64
// 1F1B-NEXT:rank 3: end 67 us, busy 64 us, bubble 0.0857143 (8.57143%), peak memory 1048576 bytes (1 M_B), sends 32
// 1F1B-NEXT:makespan: 70 us
// 1F1B-NEXT:ideal time: 64 us
// 1F1B-NEXT:bubble rate: 0.0857143 (8.57143%)
// 1F1B-NEXT:bubble / ideal time: 0.09375
// 1F1B-NEXT:max rank span: 70 us (one step when steps overlap)
// 1F1B-NEXT:span bubble rate: 0.0857143 (8.57143%)
// 1F1B-NEXT:lower bound: 70 us (busiest rank 64, critical path 70, memory warm-up 67), gap 0 (makespan / bound - 1)
// 1F1B-NEXT:Rank 0: F0  F1  F2  F3  ___ ___ ___ B0  F4  B1  F5  B2  F6  B3  F7  B4  F8  B5  F9  B6  F10 B7  F11 B8  F12 B9  F13 B10 F14 B11 F15 B12 F16 B13 F17 B14 F18 B15 F19 B16 F20 B17 F21 B18 F22 B19 F23 B20 F24 B21 F25 B22 F26 B23 F27 B24 F28 B25 F29 B26 F30 B27 F31 B28 ___ B29 ___ B30 ___ B31
// 1F1B-NEXT:Rank 1: ___ F0  F1  F2  ___ ___ B0  F3  B1  F4  B2  F5  B3  F6  B4  F7  B5  F8  B6  F9  B7  F10 B8  F11 B9  F12 B10 F13 B11 F14 B12 F15 B13 F16 B14 F17 B15 F18 B16 F19 B17 F20 B18 F21 B19 F22 B20 F23 B21 F24 B22 F25 B23 F26 B24 F27 B25 F28 B26 F29 B27 F30 B28 F31 B29 ___ B30 ___ B31
// 1F1B-NEXT:Rank 2: ___ ___ F0  F1  ___ B0  F2  B1  F3  B2  F4  B3  F5  B4  F6  B5  F7  B6  F8  B7  F9  B8  F10 B9  F11 B10 F12 B11 F13 B12 F14 B13 F15 B14 F16 B15 F17 B16 F18 B17 F19 B18 F20 B19 F21 B20 F22 B21 F23 B22 F24 B23 F25 B24 F26 B25 F27 B26 F28 B27 F29 B28 F30 B29 F31 B30 ___ B31
// 1F1B-NEXT:Rank 3: ___ ___ ___ F0  B0  F1  B1  F2  B2  F3  B3  F4  B4  F5  B5  F6  B6  F7  B7  F8  B8  F9  B9  F10 B10 F11 B11 F12 B12 F13 B13 F14 B14 F15 B15 F16 B16 F17 B17 F18 B18 F19 B19 F20 B20 F21 B21 F22 B22 F23 B23 F24 B24 F25 B25 F26 B26 F27 B27 F28 B28 F29 B29 F30 B30 F31 B31
