// Splitting a hand-written stage backward (Inputs/layer-bwd.mlir: y =
// relu(x W); dh = dy * (h > 0), dx = dh W^T, dW = x^T dh). B computes dx and
// keeps dh for W, the only value W needs from B; constants are made again in
// W, never stashed.
// RUN: pp-opt %S/Inputs/layer-bwd.mlir -pp-split-backward="function=layer_bwd input-gradients=1" | FileCheck %s

// CHECK-LABEL: func.func @layer_bwd_input(
// CHECK-SAME:      %[[X:.+]]: tensor<2x8xf32>, %[[W:.+]]: tensor<8x16xf32> {pp.parameter}, %[[H:.+]]: tensor<2x16xf32>, %[[DY:.+]]: tensor<2x16xf32>) -> (tensor<2x8xf32>, tensor<2x16xf32>)
// CHECK:         %[[DH:.+]] = linalg.generic {{.*}} ins(%[[DY]], %[[H]] :
// CHECK:         %[[DX:.+]] = linalg.generic {{.*}} ins(%[[DH]], %[[W]] :
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[DX]], %[[DH]] : tensor<2x8xf32>, tensor<2x16xf32>

// W takes the stash, then the arguments it uses (x, argument 0).
// CHECK-LABEL: func.func @layer_bwd_weight(
// CHECK-SAME:      %[[SDH:.+]]: tensor<2x16xf32>, %[[SX:.+]]: tensor<2x8xf32>) -> tensor<8x16xf32> attributes {pp.weight_arguments = array<i64: 0>}
// CHECK:         arith.constant 0.000000e+00 : f32
// CHECK:         %[[DW:.+]] = linalg.generic {{.*}} ins(%[[SX]], %[[SDH]] :
// CHECK-NEXT:    ^bb0
// CHECK:         return %[[DW]] : tensor<8x16xf32>

// B then W, equal to the fused backward.
// CHECK-LABEL: func.func @layer_bwd_split(
// CHECK-SAME:      %[[A0:.+]]: tensor<2x8xf32>, %[[A1:.+]]: tensor<8x16xf32>, %[[A2:.+]]: tensor<2x16xf32>, %[[A3:.+]]: tensor<2x16xf32>)
// CHECK-NEXT:    %[[B:.+]]:2 = call @layer_bwd_input(%[[A0]], %[[A1]], %[[A2]], %[[A3]])
// CHECK-NEXT:    %[[WG:.+]] = call @layer_bwd_weight(%[[B]]#1, %[[A0]])
// CHECK-NEXT:    return %[[B]]#0, %[[WG]]
