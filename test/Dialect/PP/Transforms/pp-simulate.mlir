// Heterogeneous costs with latency, worked by hand:
//   rank 0: F0 [0,1] F1 [1,2]; rank 1 gets F0's activation at 1.5 (latency
//   0.5): F0 [1.5,2.5] B0 [2.5,4.5]; the gradient reaches rank 0 at 5: B0
//   [5,7]; rank 1: F1 [4.5,5.5] B1 [5.5,7.5]; rank 0: B1 [8,10].
// Makespan 10 us, busiest rank 6 us of work: bubble 1 - 6/10 = 0.4 and
// 4/6 of ideal time. Rank 0 keeps two 100-byte stashes, rank 1 one of 300.
// The timeline's cell is the smallest duration, the 0.5 us latency.
// RUN: pp-opt %s -pp-plan="schedule=1f1b num-microbatches=2" -pp-simulate -o /dev/null 2>&1 | FileCheck %s --match-full-lines --strict-whitespace

// CHECK:schedule @het_1f1b (pipeline @het)
// CHECK-NEXT:pipeline: 2 ranks, 2 stages, 2 micro-batches
// CHECK-NEXT:rank 0: end 10 us, busy 6 us, bubble 0.4 (40%), peak memory 200 bytes (2 M_B), sends 2
// CHECK-NEXT:rank 1: end 7.5 us, busy 6 us, bubble 0.4 (40%), peak memory 300 bytes (1 M_B), sends 2
// CHECK-NEXT:makespan: 10 us
// CHECK-NEXT:ideal time: 6 us
// CHECK-NEXT:bubble rate: 0.4 (40%)
// CHECK-NEXT:bubble / ideal time: 0.666667
// CHECK-NEXT:max rank span: 10 us (one step when steps overlap)
// CHECK-NEXT:span bubble rate: 0.4 (40%)
// CHECK-NEXT:lower bound: 10 us (busiest rank 6, critical path 10, memory warm-up 10), gap 0 (makespan / bound - 1)
// CHECK-NEXT:Rank 0: F0 -- F1 -- __ __ __ __ __ __ B0 -- -- -- __ __ B1 -- -- --
// CHECK-NEXT:Rank 1: __ __ __ F0 -- B0 -- -- -- F1 -- B1 -- -- --
pp.pipeline @het ranks(2) latency(0.5) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 2, backward_weight = 0) memory(stash = 100)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 2, backward_weight = 0) memory(stash = 300)
}
