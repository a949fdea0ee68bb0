// Partitions of a three-layer MLP (Inputs/mlp3.mlir). FLOPs per op: matmuls
// 2*2*16*8 = 512, 2*2*16*16 = 1024, 2*2*4*16 = 256 (mul and add per point),
// ReLUs 32 each; constants, tensor.empty and fills are recomputed in every
// stage that uses them. The best cuts minimize the largest stage:
//   2 stages: [matmul 512, relu 32 | matmul 1024, relu 32, matmul 256]: 1312
//   3 stages: [512 + 32 | 1024 | 32 + 256]: 1024
// RUN: pp-opt %S/Inputs/mlp3.mlir -pp-partition="function=mlp num-stages=2" 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: pp-opt %S/Inputs/mlp3.mlir -pp-partition="function=mlp num-stages=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=THREE
// RUN: pp-opt %S/Inputs/mlp3.mlir -pp-partition="function=mlp num-stages=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE

// TWO:      pp-partition @mlp: 2 stages
// TWO-NEXT:   stage 0: 2 ops, 544 FLOP, parameters 512 bytes, stash 256 bytes, sends 128 bytes
// TWO-NEXT:   stage 1: 3 ops, 1312 FLOP, parameters 1280 bytes, stash 288 bytes, sends 0 bytes

// Stage 0 takes the data and the first weight, returns the activation.
// TWO-LABEL: func.func @mlp_stage0(
// TWO-SAME:      %[[X:.+]]: tensor<2x8xf32>, %[[W0:.+]]: tensor<8x16xf32> {pp.parameter}) -> tensor<2x16xf32> attributes {pp.stage = 0 : i64}
// TWO:         %[[ZERO:.+]] = linalg.fill
// TWO:         linalg.matmul ins(%[[X]], %[[W0]] : tensor<2x8xf32>, tensor<8x16xf32>) outs(%[[ZERO]] : tensor<2x16xf32>)
// TWO:         %[[A:.+]] = linalg.generic
// TWO:         return %[[A]] : tensor<2x16xf32>
// TWO-LABEL: func.func @mlp_stage1(
// TWO-SAME:      %{{.+}}: tensor<2x16xf32>, %{{.+}}: tensor<16x16xf32> {pp.parameter}, %{{.+}}: tensor<16x4xf32> {pp.parameter}) -> tensor<2x4xf32> attributes {pp.stage = 1 : i64}
// TWO-COUNT-2: linalg.matmul
// The stages in order, for comparing with the original.
// TWO-LABEL: func.func @mlp_staged(
// TWO-SAME:      %[[P0:.+]]: tensor<8x16xf32>, %[[P1:.+]]: tensor<16x16xf32>, %[[P2:.+]]: tensor<16x4xf32>, %[[D:.+]]: tensor<2x8xf32>)
// TWO-NEXT:    %[[S0:.+]] = call @mlp_stage0(%[[D]], %[[P0]])
// TWO-NEXT:    %[[S1:.+]] = call @mlp_stage1(%[[S0]], %[[P1]], %[[P2]])
// TWO-NEXT:    return %[[S1]]
// FLOPs at the default 1e4 FLOP/us; B and W estimated equal to F.
// TWO-LABEL: pp.pipeline @mlp_pipeline ranks(2) activation_bytes(128) {
// TWO-NEXT:    pp.stage 0 on rank 0 forward @mlp_stage0 costs(forward = 0.0544, backward_input = 0.0544, backward_weight = 0.0544) memory(stash = 256, weight_stash = 0)
// TWO-NEXT:    pp.stage 1 on rank 1 forward @mlp_stage1 costs(forward = 0.1312, backward_input = 0.1312, backward_weight = 0.1312) memory(stash = 288, weight_stash = 0)

// THREE:      pp-partition @mlp: 3 stages
// THREE-NEXT:   stage 0: 2 ops, 544 FLOP, parameters 512 bytes, stash 256 bytes, sends 128 bytes
// THREE-NEXT:   stage 1: 1 ops, 1024 FLOP, parameters 1024 bytes, stash 128 bytes, sends 128 bytes
// THREE-NEXT:   stage 2: 2 ops, 288 FLOP, parameters 256 bytes, stash 160 bytes, sends 0 bytes

// ONE:      pp-partition @mlp: 1 stages
// ONE-NEXT:   stage 0: 5 ops, 1856 FLOP, parameters 1792 bytes, stash 544 bytes, sends 0 bytes
