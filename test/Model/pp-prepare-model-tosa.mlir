// pp-prepare-model on TOSA: every tosa op is lowered (to linalg.generic,
// arith, tensor reshapes); tosa.matmul becomes a batch-matmul-shaped
// generic.
// RUN: pp-opt %s -pp-prepare-model | FileCheck %s

// CHECK-LABEL: func.func @tosa_model(
// CHECK-NOT:     tosa.
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-NEXT:    ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT:      %[[P:.+]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:      arith.addf %[[ACC]], %[[P]] : f32
// The sigmoid: 1 / (1 + exp(-x)).
// CHECK:           arith.negf
// CHECK-NEXT:      math.exp
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      arith.divf
// CHECK:         tensor.collapse_shape
// CHECK-NOT:     tosa.
// CHECK:         return

func.func @tosa_model(%x: tensor<1x4x8xf32>, %w: tensor<1x8x6xf32>, %b: tensor<1x1x6xf32>) -> tensor<4x6xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %h = tosa.matmul %x, %w, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x6xf32>
  %hb = tosa.add %h, %b : (tensor<1x4x6xf32>, tensor<1x1x6xf32>) -> tensor<1x4x6xf32>
  %s = tosa.sigmoid %hb : (tensor<1x4x6xf32>) -> tensor<1x4x6xf32>
  %shape = tosa.const_shape {values = dense<[4, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %s, %shape : (tensor<1x4x6xf32>, !tosa.shape<2>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
