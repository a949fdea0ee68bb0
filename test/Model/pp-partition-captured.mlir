// A gather whose table is a value above its body: a position embedding, the
// parameter %pos reshaped and read at constant ids, depends only on a
// parameter and constants, so every stage that uses it recomputes it
// (ops without work are not sent). Stage 1 clones the reshape that the
// gather's body reads from above, not only the gather's operands.
// RUN: pp-opt %s -pp-partition="function=f" | FileCheck %s
// CHECK-LABEL: func.func @f_stage1(
// CHECK-SAME: %[[POS:[^:]+]]: tensor<8x4xf32> {pp.parameter}
// CHECK: %[[TABLE:.*]] = tensor.expand_shape %[[POS]]
// CHECK: linalg.generic
// CHECK: tensor.extract %[[TABLE]][
func.func @f(%x: tensor<8x4xf32>, %pos: tensor<8x4xf32> {pp.parameter}, %w: tensor<4x4xf32> {pp.parameter}) -> tensor<8x4xf32> {
  %ids = arith.constant dense<[7, 6, 5, 4, 3, 2, 1, 0]> : tensor<8xi64>
  %table = tensor.expand_shape %pos [[0, 1], [2]] output_shape [1, 8, 4] : tensor<8x4xf32> into tensor<1x8x4xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<8xi64>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%id: i64, %o: f32):
    %c0 = arith.constant 0 : index
    %i = arith.index_cast %id : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%c0, %i, %j] : tensor<1x8x4xf32>
    linalg.yield %v : f32
  } -> tensor<8x4xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %h = linalg.matmul {pp.split_point} ins(%x, %w : tensor<8x4xf32>, tensor<4x4xf32>) outs(%f : tensor<8x4xf32>) -> tensor<8x4xf32>
  %y = linalg.add ins(%h, %g : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}
