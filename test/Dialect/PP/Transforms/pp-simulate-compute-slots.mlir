// Ranks that share cores (compute-slots): the pipeline of pp-simulate.mlir
// on one core, worked by hand. Rank 0: F0 [0,1]; F1 (ready at 1) takes
// the core before rank 1's F0 (ready at 1.5): F1 [1,2]; rank 1: F0 [2,3]
// B0 [3,5]; its F1 (ready at 5) before rank 0's B0 (gradient at 5.5):
// F1 [5,6]; then rank 0's B0 [6,8] (ready 5.5) before rank 1's B1 (ready
// 6): B1 [8,10]; rank 0's B1 waits for its gradient: [10.5,12.5]. The step
// is the 12 us of work plus the last latency; busy times are work alone.
// RUN: pp-opt %s -pp-plan="schedule=1f1b num-microbatches=2" -pp-simulate="compute-slots=1" -o /dev/null 2>&1 | FileCheck %s --match-full-lines --strict-whitespace
// Two slots for two ranks: the report of pp-simulate.mlir.
// RUN: pp-opt %s -pp-plan="schedule=1f1b num-microbatches=2" -pp-simulate="compute-slots=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: not pp-opt %s -pp-plan="schedule=1f1b num-microbatches=2" -pp-simulate="compute-slots=-1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RANGE

// CHECK:schedule @het_1f1b (pipeline @het)
// CHECK-NEXT:compute slots: the 2 ranks share 1 core(s)
// CHECK-NEXT:pipeline: 2 ranks, 2 stages, 2 micro-batches
// CHECK-NEXT:rank 0: end 12.5 us, busy 6 us, bubble 0.52 (52%), peak memory 200 bytes (2 M_B), sends 2
// CHECK-NEXT:rank 1: end 10 us, busy 6 us, bubble 0.52 (52%), peak memory 300 bytes (1 M_B), sends 2
// CHECK-NEXT:makespan: 12.5 us
// CHECK:lower bound: 12 us (busiest rank 6, critical path 10, memory warm-up 10, shared cores 12), gap {{[0-9.e-]+}} (makespan / bound - 1)
// CHECK:Rank 0: F0 -- F1 -- __ __ __ __ __ __ __ __ B0 -- -- -- __ __ __ __ __ B1 -- -- --
// CHECK-NEXT:Rank 1: __ __ __ __ F0 -- B0 -- -- -- F1 -- __ __ __ __ B1 -- -- --

// TWO-NOT: compute slots
// TWO: makespan: 10 us

// RANGE: error: option 'compute-slots' must be in [0, 4096], got -1
pp.pipeline @het ranks(2) latency(0.5) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 2, backward_weight = 0) memory(stash = 100)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 2, backward_weight = 0) memory(stash = 300)
}
