// ZB-V on two ranks with the V placement (rank 0 runs stages 0 and 3, rank 1
// stages 1 and 2) and F = B = W: rank 0 never idles and rank 1 only waits
// (P-1) T = 1 us for its first input, the paper's zero bubble (Qi et al.,
// ICLR 2024, sec. 6). Ranks that run several stages label each action with
// its stage ("3B0": backward of stage 3, micro-batch 0). Rank 0 peaks at
// its four forwards before 3B0: 4 M_B = 40 bytes (45 under
// stash-accounting=hold, which adds 3B0's weight stash while it runs).
// RUN: pp-opt %s -pp-plan="schedule=zb-v num-microbatches=3" -pp-simulate -o /dev/null 2>&1 | FileCheck %s --match-full-lines --strict-whitespace

// CHECK:schedule @v_zb_v (pipeline @v)
// CHECK-NEXT:pipeline: 2 ranks, 4 stages, 3 micro-batches
// CHECK-NEXT:rank 0: end 18 us, busy 18 us, bubble 0.0526316 (5.26316%), peak memory 40 bytes (4 M_B), sends 6
// CHECK-NEXT:rank 1: end 19 us, busy 18 us, bubble 0.0526316 (5.26316%), peak memory 40 bytes (4 M_B), sends 6
// CHECK-NEXT:makespan: 19 us
// CHECK-NEXT:ideal time: 18 us
// CHECK-NEXT:bubble rate: 0.0526316 (5.26316%)
// CHECK-NEXT:bubble / ideal time: 0.0555556
// CHECK-NEXT:max rank span: 18 us (one step when steps overlap)
// CHECK-NEXT:span bubble rate: 0 (0%)
// CHECK-NEXT:lower bound: 19 us (busiest rank 18, critical path 19, memory warm-up 19), gap 0 (makespan / bound - 1)
// CHECK-NEXT:Rank 0: 0F0 0F1 0F2 3F0 3B0 3W0 3F1 3B1 3W1 0B0 0W0 3F2 3B2 3W2 0B1 0W1 0B2 0W2
// CHECK-NEXT:Rank 1: ___ 1F0 2F0 1F1 2F1 2B0 2W0 1F2 1B0 1W0 2F2 2B1 2W1 1B1 2B2 1B2 1W1 2W2 1W2

pp.pipeline @v ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 10, weight_stash = 5)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 10, weight_stash = 5)
  pp.stage 2 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 10, weight_stash = 5)
  pp.stage 3 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 10, weight_stash = 5)
}
