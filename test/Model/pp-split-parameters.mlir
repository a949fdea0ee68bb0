// RUN: pp-opt %s -split-input-file -pp-split-parameters="function=f" | FileCheck %s
// RUN: pp-opt %s -split-input-file -pp-split-parameters="function=f" -verify-diagnostics -o /dev/null
// RUN: pp-opt %s -split-input-file -pp-split-ops="function=f max-fraction=0.5" -pp-split-parameters="function=f" | FileCheck %s --check-prefix=AFTER-SPLIT-OPS

// A weight read in three row slices (one read twice) becomes three
// parameters in its place, each with its slice's shape, its attributes and
// pp.parameter_piece = [argument before the pass, dimension, offset]; the
// slices are gone and their users read the pieces. The data argument after
// it keeps its place after the pieces.
// CHECK-LABEL: func.func @f(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x16xf32>,
// CHECK-SAME:    %[[W0:[^:]+]]: tensor<3x16xf32> {pp.name = "w", pp.parameter, pp.parameter_piece = array<i64: 1, 0, 0>},
// CHECK-SAME:    %[[W1:[^:]+]]: tensor<5x16xf32> {pp.name = "w", pp.parameter, pp.parameter_piece = array<i64: 1, 0, 3>},
// CHECK-SAME:    %[[W2:[^:]+]]: tensor<2x16xf32> {pp.name = "w", pp.parameter, pp.parameter_piece = array<i64: 1, 0, 8>},
// CHECK-SAME:    %[[Y:[^:]+]]: tensor<4xf32>)
// CHECK-NOT:   tensor.extract_slice
// CHECK:       return %[[W0]], %[[W2]], %[[W1]], %[[W0]], %[[Y]]
// expected-remark @below {{parameter argument 1 (tensor<10x16xf32>) split into 3 parameters along dimension 0}}
func.func @f(%x: tensor<4x16xf32>, %w: tensor<10x16xf32> {pp.parameter, pp.name = "w"}, %y: tensor<4xf32>)
    -> (tensor<3x16xf32>, tensor<2x16xf32>, tensor<5x16xf32>, tensor<3x16xf32>, tensor<4xf32>) {
  %a = tensor.extract_slice %w[0, 0] [3, 16] [1, 1] : tensor<10x16xf32> to tensor<3x16xf32>
  %c = tensor.extract_slice %w[8, 0] [2, 16] [1, 1] : tensor<10x16xf32> to tensor<2x16xf32>
  %b = tensor.extract_slice %w[3, 0] [5, 16] [1, 1] : tensor<10x16xf32> to tensor<5x16xf32>
  %a2 = tensor.extract_slice %w[0, 0] [3, 16] [1, 1] : tensor<10x16xf32> to tensor<3x16xf32>
  return %a, %c, %b, %a2, %y : tensor<3x16xf32>, tensor<2x16xf32>, tensor<5x16xf32>, tensor<3x16xf32>, tensor<4xf32>
}

// -----

// Two parameters split: each piece records the argument's index before the
// pass (3, not 4, for %v after %w became two). Columns (dimension 1) work
// as rows do.
// CHECK-LABEL: func.func @f(
// CHECK-SAME:    tensor<4x2xf32> {pp.parameter, pp.parameter_piece = array<i64: 1, 1, 0>},
// CHECK-SAME:    tensor<4x2xf32> {pp.parameter, pp.parameter_piece = array<i64: 1, 1, 2>},
// CHECK-SAME:    tensor<4xf32>,
// CHECK-SAME:    tensor<1x4xf32> {pp.parameter, pp.parameter_piece = array<i64: 3, 0, 0>},
// CHECK-SAME:    tensor<1x4xf32> {pp.parameter, pp.parameter_piece = array<i64: 3, 0, 1>})
// expected-remark @below {{parameter argument 1 (tensor<4x4xf32>) split into 2 parameters along dimension 1}}
// expected-remark @below {{parameter argument 3 (tensor<2x4xf32>) split into 2 parameters along dimension 0}}
func.func @f(%x: tensor<4xf32>, %w: tensor<4x4xf32> {pp.parameter}, %y: tensor<4xf32>, %v: tensor<2x4xf32> {pp.parameter})
    -> (tensor<4x2xf32>, tensor<4x2xf32>, tensor<1x4xf32>, tensor<1x4xf32>) {
  %a = tensor.extract_slice %w[0, 0] [4, 2] [1, 1] : tensor<4x4xf32> to tensor<4x2xf32>
  %b = tensor.extract_slice %w[0, 2] [4, 2] [1, 1] : tensor<4x4xf32> to tensor<4x2xf32>
  %c = tensor.extract_slice %v[0, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<1x4xf32>
  %d = tensor.extract_slice %v[1, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<1x4xf32>
  return %a, %b, %c, %d : tensor<4x2xf32>, tensor<4x2xf32>, tensor<1x4xf32>, tensor<1x4xf32>
}

// -----

// A function split before: %a0 and %a1 are pieces of its argument 0, so %w
// (now at 2) was argument 1 and its pieces record 1.
// CHECK-LABEL: func.func @f(
// CHECK-SAME:    tensor<2x4xf32> {pp.parameter, pp.parameter_piece = array<i64: 0, 0, 0>},
// CHECK-SAME:    tensor<2x4xf32> {pp.parameter, pp.parameter_piece = array<i64: 0, 0, 2>},
// CHECK-SAME:    tensor<1x4xf32> {pp.parameter, pp.parameter_piece = array<i64: 1, 0, 0>},
// CHECK-SAME:    tensor<1x4xf32> {pp.parameter, pp.parameter_piece = array<i64: 1, 0, 1>})
// expected-remark @below {{parameter argument 2 (tensor<2x4xf32>) split into 2 parameters along dimension 0}}
func.func @f(%a0: tensor<2x4xf32> {pp.parameter, pp.parameter_piece = array<i64: 0, 0, 0>},
             %a1: tensor<2x4xf32> {pp.parameter, pp.parameter_piece = array<i64: 0, 0, 2>},
             %w: tensor<2x4xf32> {pp.parameter})
    -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) {
  %c = tensor.extract_slice %w[0, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<1x4xf32>
  %d = tensor.extract_slice %w[1, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<1x4xf32>
  return %a0, %a1, %c, %d : tensor<2x4xf32>, tensor<2x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>
}

// -----

// Left alone (no remark): a parameter also read whole (%a), slices that
// leave a gap (%b: rows 0-1 and 3), overlapping slices (%c), slices along
// two dimensions (%d), a strided slice (%e), a rank-reducing slice (%g),
// one slice only (%h), a data argument (%i), an argument that already is a
// piece (%j).
// CHECK-LABEL: func.func @f(
// CHECK-SAME:    %{{.+}}: tensor<4x4xf32> {pp.parameter}, %{{.+}}: tensor<4x4xf32> {pp.parameter}, %{{.+}}: tensor<4x4xf32> {pp.parameter}, %{{.+}}: tensor<4x4xf32> {pp.parameter}, %{{.+}}: tensor<4x4xf32> {pp.parameter}, %{{.+}}: tensor<4x4xf32> {pp.parameter}, %{{.+}}: tensor<4x4xf32> {pp.parameter}, %{{.+}}: tensor<4x4xf32>, %{{.+}}: tensor<4x4xf32> {pp.parameter, pp.parameter_piece = array<i64: 0, 0, 0>})
func.func @f(%a: tensor<4x4xf32> {pp.parameter}, %b: tensor<4x4xf32> {pp.parameter},
             %c: tensor<4x4xf32> {pp.parameter}, %d: tensor<4x4xf32> {pp.parameter},
             %e: tensor<4x4xf32> {pp.parameter}, %g: tensor<4x4xf32> {pp.parameter},
             %h: tensor<4x4xf32> {pp.parameter}, %i: tensor<4x4xf32>,
             %j: tensor<4x4xf32> {pp.parameter, pp.parameter_piece = array<i64: 0, 0, 0>})
    -> (tensor<4x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<1x4xf32>, tensor<2x4xf32>, tensor<3x4xf32>,
        tensor<2x2xf32>, tensor<2x4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>,
        tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %a0 = tensor.extract_slice %a[0, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %a1 = tensor.extract_slice %a[2, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %b0 = tensor.extract_slice %b[0, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %b1 = tensor.extract_slice %b[3, 0] [1, 4] [1, 1] : tensor<4x4xf32> to tensor<1x4xf32>
  %c0 = tensor.extract_slice %c[0, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %c1 = tensor.extract_slice %c[1, 0] [3, 4] [1, 1] : tensor<4x4xf32> to tensor<3x4xf32>
  %d0 = tensor.extract_slice %d[0, 0] [2, 2] [1, 1] : tensor<4x4xf32> to tensor<2x2xf32>
  %e0 = tensor.extract_slice %e[0, 0] [2, 4] [2, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %g0 = tensor.extract_slice %g[0, 0] [1, 4] [1, 1] : tensor<4x4xf32> to tensor<4xf32>
  %g1 = tensor.extract_slice %g[1, 0] [3, 4] [1, 1] : tensor<4x4xf32> to tensor<3x4xf32>
  %h0 = tensor.extract_slice %h[0, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %i0 = tensor.extract_slice %i[0, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %i1 = tensor.extract_slice %i[2, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %j0 = tensor.extract_slice %j[0, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %j1 = tensor.extract_slice %j[2, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %h1 = tensor.extract_slice %h[0, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %e1 = tensor.extract_slice %e[2, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  return %a, %a0, %a1, %b1, %b0, %c1, %d0, %e0, %g0, %h0, %i0, %i1, %j0, %j1, %h1, %e1, %c0
    : tensor<4x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<1x4xf32>, tensor<2x4xf32>, tensor<3x4xf32>,
      tensor<2x2xf32>, tensor<2x4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>,
      tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// After pp-split-ops: the matmul split into two pieces reads two slices of
// %w's rows (through each piece's transpose), which become two parameters.
// AFTER-SPLIT-OPS: func.func @f(%{{[^:]+}}: tensor<4x16xf32>, %[[W0:[^:]+]]: tensor<4x16xf32> {pp.parameter, pp.parameter_piece = array<i64: 1, 0, 0>}, %[[W1:[^:]+]]: tensor<4x16xf32> {pp.parameter, pp.parameter_piece = array<i64: 1, 0, 4>})
// AFTER-SPLIT-OPS-NOT:   tensor.extract_slice
// AFTER-SPLIT-OPS:       linalg.generic {{.*}} ins(%[[W0]] : tensor<4x16xf32>) outs(%{{.+}} : tensor<16x4xf32>)
// AFTER-SPLIT-OPS:       linalg.generic {{.*}} ins(%[[W1]] : tensor<4x16xf32>) outs(%{{.+}} : tensor<16x4xf32>)
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
#t0 = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%x: tensor<4x16xf32>, %w: tensor<8x16xf32> {pp.parameter}) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %wt = linalg.generic {indexing_maps = [#t0, #id], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<8x16xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<16x8xf32>
  %z = arith.constant dense<0.0> : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %wt : tensor<4x16xf32>, tensor<16x8xf32>) outs(%z : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
