// A stage whose fused backward is split names B and W afterwards. On the
// first stage (input-gradients=0) B is empty and W computes everything.
// RUN: pp-opt %s -pp-split-backward="function=bwd0 input-gradients=0" | FileCheck %s

// CHECK: pp.stage 0 on rank 0 forward @fwd0 backward_input @bwd0_input backward_weight @bwd0_weight
// CHECK-LABEL: func.func @bwd0_input(
// CHECK-SAME:      %{{.+}}: tensor<4xf32> {pp.parameter}, %{{.+}}: tensor<4xf32>) {
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @bwd0_weight(
// CHECK-SAME:      %[[W:.+]]: tensor<4xf32>, %[[G:.+]]: tensor<4xf32>) -> tensor<4xf32> attributes {pp.weight_arguments = array<i64: 0, 1>}
// CHECK:         %[[T:.+]] = linalg.map { math.exp } ins(%[[W]]
// CHECK:         linalg.map { arith.mulf } ins(%[[T]], %[[G]]
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 forward @fwd0 backward @bwd0
}
func.func @fwd0(%w: tensor<4xf32> {pp.parameter}) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
func.func @bwd0(%w: tensor<4xf32> {pp.parameter}, %dy: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %t = linalg.map { math.exp } ins(%w : tensor<4xf32>) outs(%e : tensor<4xf32>)
  %dw = linalg.map { arith.mulf } ins(%t, %dy : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>)
  return %dw : tensor<4xf32>
}
