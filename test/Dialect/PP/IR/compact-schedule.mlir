// The compact form of pp.schedule prints as it parses, survives the generic
// form and bytecode unchanged, and holds every kind of action: F&B pairs
// (overlapped), fused and split backwards, sends and receives.
// RUN: pp-opt %s | FileCheck %s
// RUN: pp-opt %s | pp-opt | FileCheck %s
// RUN: pp-opt %s --mlir-print-op-generic | pp-opt | FileCheck %s
// RUN: pp-opt %s --emit-bytecode | pp-opt | FileCheck %s
// The generic form holds four words per action (kind | payload << 3 |
// overlapped << 4, stage, micro-batch, peer or -1) and the count per rank.
// RUN: pp-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

pp.pipeline @p ranks(2) activation_bytes(16) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 32)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 32)
}

// CHECK-LABEL: pp.schedule @s pipeline(@p) microbatches(2) compact
// CHECK-NEXT:  rank 0 [forward 0 0, send activation 0 0 to 1, forward 0 1, send activation 0 1 to 1, recv gradient 1 0 from 1, backward_input 0 0, backward_weight 0 0, recv gradient 1 1 from 1, backward 0 1]
// CHECK-NEXT:  rank 1 [recv activation 0 0 from 0, forward 1 0, recv activation 0 1 from 0, forward 1 1 overlapped, backward 1 0, send gradient 1 0 to 0, backward 1 1, send gradient 1 1 to 0]
// GENERIC: packed_actions = array<i32: 0, 0, 0, -1, 4, 0, 0, 1, 0, 0, 1, -1, 4, 0, 1, 1, 13, 1, 0, 1, 2, 0, 0, -1, 3, 0, 0, -1, 13, 1, 1, 1, 1, 0, 1, -1, 5, 0, 0, 0, 0, 1, 0, -1, 5, 0, 1, 0, 16, 1, 1, -1, 1, 1, 0, -1, 12, 1, 0, 0, 1, 1, 1, -1, 12, 1, 1, 0>
// GENERIC-SAME: rank_action_counts = array<i64: 9, 8>
pp.schedule @s pipeline(@p) microbatches(2) compact
rank 0 [forward 0 0, send activation 0 0 to 1, forward 0 1, send activation 0 1 to 1,
        recv gradient 1 0 from 1, backward_input 0 0, backward_weight 0 0,
        recv gradient 1 1 from 1, backward 0 1]
rank 1 [recv activation 0 0 from 0, forward 1 0, recv activation 0 1 from 0,
        forward 1 1 overlapped, backward 1 0, send gradient 1 0 to 0,
        backward 1 1, send gradient 1 1 to 0]

// A rank with no actions, and an attribute of the user's, which
// pp-expand-schedule keeps.
// CHECK-LABEL: pp.schedule @idle pipeline(@one) microbatches(1) attributes {test.tag = 3 : i64} compact
// CHECK-NEXT:  rank 0 [forward 0 0, backward 0 0]
// CHECK-NEXT:  rank 1 []
// RUN: pp-opt %s --pp-expand-schedule | FileCheck %s --check-prefix=EXPAND
// EXPAND-LABEL: pp.schedule @idle pipeline(@one) microbatches(1) attributes {test.tag = 3 : i64}
// EXPAND-NEXT:  rank 0 {
// EXPAND-NEXT:    %stash_s0_mb0 = pp.forward stage 0 microbatch 0 : () -> !pp.stash<8>
// EXPAND-NEXT:    pp.backward stage 0 microbatch 0 (%stash_s0_mb0) : (!pp.stash<8>) -> ()
// EXPAND-NEXT:  }
// EXPAND-NEXT:  rank 1 {
// EXPAND-NEXT:  }
pp.pipeline @one ranks(2) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
pp.schedule @idle pipeline(@one) microbatches(1) attributes {test.tag = 3 : i64} compact
rank 0 [forward 0 0, backward 0 0]
rank 1 []

// All-reduces are entries of the lists, right after the action they follow
// (a bucket's members after the same one), held in packed_all_reduces: six
// words each (rank, index of the action before it, stage, replicas, bytes,
// bucket or -1), in program order. Expanded, they are pp.allreduce ops.
// CHECK-LABEL: pp.schedule @dp pipeline(@v) microbatches(1) compact
// CHECK-NEXT:  rank 0 [forward 0 0, send activation 0 0 to 1, recv activation 1 0 from 1, forward 2 0, send activation 2 0 to 1, recv gradient 3 0 from 1, backward 2 0, allreduce 2 replicas 2 bytes 300, send gradient 2 0 to 1, recv gradient 1 0 from 1, backward 0 0, allreduce 0 replicas 2 bytes 100]
// CHECK-NEXT:  rank 1 [recv activation 0 0 from 0, forward 1 0, send activation 1 0 to 0, recv activation 2 0 from 0, forward 3 0, backward 3 0, send gradient 3 0 to 0, recv gradient 2 0 from 0, backward 1 0, allreduce 3 replicas 2 bytes 400 bucket 0, allreduce 1 replicas 2 bytes 200 bucket 0, send gradient 1 0 to 0]
// GENERIC: packed_all_reduces = array<i64: 0, 6, 2, 2, 300, -1, 0, 9, 0, 2, 100, -1, 1, 8, 3, 2, 400, 0, 1, 8, 1, 2, 200, 0>
// EXPAND-LABEL: pp.schedule @dp pipeline(@v) microbatches(1)
// EXPAND:       pp.backward stage 2 microbatch 0
// EXPAND-NEXT:  pp.allreduce gradients stage 2 replicas 2 bytes 300
// EXPAND-NEXT:  pp.send gradient stage 2 microbatch 0 to rank 1
// EXPAND:       pp.backward stage 0 microbatch 0
// EXPAND-NEXT:  pp.allreduce gradients stage 0 replicas 2 bytes 100
// EXPAND-NEXT:  }
// EXPAND:       pp.backward stage 1 microbatch 0
// EXPAND-NEXT:  pp.allreduce gradients stage 3 replicas 2 bytes 400 bucket 0
// EXPAND-NEXT:  pp.allreduce gradients stage 1 replicas 2 bytes 200 bucket 0
// EXPAND-NEXT:  pp.send gradient stage 1 microbatch 0 to rank 0
pp.pipeline @v ranks(2) activation_bytes(16) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 32)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 32)
  pp.stage 2 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 32)
  pp.stage 3 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 64, weight_stash = 32)
}
pp.schedule @dp pipeline(@v) microbatches(1) compact
rank 0 [forward 0 0, send activation 0 0 to 1, recv activation 1 0 from 1, forward 2 0, send activation 2 0 to 1,
        recv gradient 3 0 from 1, backward 2 0, allreduce 2 replicas 2 bytes 300, send gradient 2 0 to 1,
        recv gradient 1 0 from 1, backward 0 0, allreduce 0 replicas 2 bytes 100]
rank 1 [recv activation 0 0 from 0, forward 1 0, send activation 1 0 to 0, recv activation 2 0 from 0, forward 3 0,
        backward 3 0, send gradient 3 0 to 0, recv gradient 2 0 from 0, backward 1 0,
        allreduce 3 replicas 2 bytes 400 bucket 0, allreduce 1 replicas 2 bytes 200 bucket 0, send gradient 1 0 to 0]
