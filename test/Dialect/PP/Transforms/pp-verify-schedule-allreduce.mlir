// RUN: pp-opt %s --pp-plan="schedule=zb-h1 num-microbatches=3" --pp-insert-allreduce="replicas=2 gradient-bytes=1000,3000" --pp-verify-schedule="explain" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZB
// RUN: pp-opt %s --pp-plan="schedule=1f1b num-microbatches=4" --pp-verify-schedule="explain" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE

// pp-verify-schedule with all-reduces runs the D replicas, each all-reduce
// a blocking collective over its rank's copies, and says what it proved.
// ZB: remark: schedule @p_zb_h1: no deadlock: 2 ranks, {{[0-9]+}} actions ran to the end with rendezvous send/recv; so did its 2 replicas (4 ranks) with the 2 all-reduces of each as blocking collectives over the replicas of their rank, which every replica reaches in the same order (one program per rank)
// ONE: remark: schedule @p_1f1b: no deadlock: 2 ranks, {{[0-9]+}} actions ran to the end with rendezvous send/recv{{$}}
// Interleaved (V = 2): two all-reduces per rank, in program order.
// RUN: pp-opt %S/Inputs/two-stages-per-rank.mlir --pp-plan="schedule=interleaved-1f1b num-microbatches=4" --pp-insert-allreduce="replicas=3 gradient-bytes=1,2,3,4" --pp-verify-schedule="explain" -o /dev/null 2>&1 | FileCheck %s --check-prefix=V2
// V2: remark: schedule @q_interleaved_1f1b: no deadlock: 2 ranks, {{[0-9]+}} actions ran to the end with rendezvous send/recv; so did its 3 replicas (6 ranks) with the 4 all-reduces

pp.pipeline @p ranks(2) activation_bytes(64) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 128, weight_stash = 64)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 128, weight_stash = 64)
}

