// RUN: pp-opt %s -split-input-file -pp-split-ops="function=f max-fraction=0.3" | FileCheck %s
// RUN: pp-opt %s -split-input-file -pp-split-ops="function=f max-fraction=0.3" -verify-diagnostics -o /dev/null

#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
#t0 = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// A matmul against a transposed weight, all of @f's work (the transpose
// of the parameter %w is recomputed where used, not placed, so not counted),
// splits into ceil(1 / 0.3) = 4 pieces along its largest parallel loop
// (d1, the 10 output columns: 3, 3, 2, 2): each piece transposes its rows of
// %w, multiplies into zeros of its shape and writes its columns into the
// result. The whole transpose and zero constant are gone.
// CHECK-LABEL: func.func @f(
// CHECK-SAME:    %[[X:.+]]: tensor<4x16xf32>, %[[W:.+]]: tensor<10x16xf32>
// CHECK-NOT:   tensor<16x10xf32>
// CHECK:       %[[E:.+]] = tensor.empty() : tensor<4x10xf32>
// CHECK:       %[[W0:.+]] = tensor.extract_slice %[[W]][0, 0] [3, 16] [1, 1] : tensor<10x16xf32> to tensor<3x16xf32>
// CHECK:       %[[T0:.+]] = linalg.generic {{.*}} ins(%[[W0]] : tensor<3x16xf32>) outs(%{{.+}} : tensor<16x3xf32>)
// CHECK:       %[[Z0:.+]] = arith.constant dense<0.000000e+00> : tensor<4x3xf32>
// CHECK:       %[[P0:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[T0]] : tensor<4x16xf32>, tensor<16x3xf32>) outs(%[[Z0]] : tensor<4x3xf32>)
// CHECK:       %[[R0:.+]] = tensor.insert_slice %[[P0]] into %[[E]][0, 0] [4, 3] [1, 1]
// CHECK:       tensor.extract_slice %[[W]][3, 0] [3, 16] [1, 1]
// CHECK:       %[[R1:.+]] = tensor.insert_slice %{{.+}} into %[[R0]][0, 3] [4, 3] [1, 1]
// CHECK:       tensor.extract_slice %[[W]][6, 0] [2, 16] [1, 1]
// CHECK:       %[[R2:.+]] = tensor.insert_slice %{{.+}} into %[[R1]][0, 6] [4, 2] [1, 1]
// CHECK:       tensor.extract_slice %[[W]][8, 0] [2, 16] [1, 1]
// CHECK:       %[[R3:.+]] = tensor.insert_slice %{{.+}} into %[[R2]][0, 8] [4, 2] [1, 1]
// CHECK-NOT:   linalg.generic
// CHECK:       return %[[R3]]
func.func @f(%x: tensor<4x16xf32>, %w: tensor<10x16xf32> {pp.parameter}) -> tensor<4x10xf32> {
  %e = tensor.empty() : tensor<16x10xf32>
  %wt = linalg.generic {indexing_maps = [#t0, #id], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<10x16xf32>) outs(%e : tensor<16x10xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<16x10xf32>
  %z = arith.constant dense<0.0> : tensor<4x10xf32>
  // expected-remark @below {{split into 4 pieces along loop d1 (range 10): 1.28E+03 FLOP, 100.0% of @f}}
  %r = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %wt : tensor<4x16xf32>, tensor<16x10xf32>) outs(%z : tensor<4x10xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x10xf32>
  return %r : tensor<4x10xf32>
}

// -----

// A 1-D convolution with stride 2: the output positions d1 appear in the
// input's window (d1 * 2 + d3), so the split takes the output channels d2
// (range 4; ceil(1 / 0.3) = 4 pieces of one). The zero fill that only the
// convolution uses is filled per piece (the fill, on no parameter, is not
// counted: pp-partition recomputes it); %x is read whole by every piece.
// CHECK-LABEL: func.func @f(
// CHECK-SAME:    %[[X:.+]]: tensor<1x9x2xf32>, %[[W:.+]]: tensor<3x2x4xf32>
// CHECK-NOT:   linalg.fill
// CHECK:       %[[E:.+]] = tensor.empty() : tensor<1x4x4xf32>
// CHECK:       %[[W0:.+]] = tensor.extract_slice %[[W]][0, 0, 0] [3, 2, 1] [1, 1, 1]
// CHECK:       %[[E0:.+]] = tensor.empty() : tensor<1x4x1xf32>
// CHECK:       %[[F0:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E0]] : tensor<1x4x1xf32>)
// CHECK:       %[[P0:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[W0]] : tensor<1x9x2xf32>, tensor<3x2x1xf32>) outs(%[[F0]] : tensor<1x4x1xf32>)
// CHECK:       %[[R0:.+]] = tensor.insert_slice %[[P0]] into %[[E]][0, 0, 0] [1, 4, 1] [1, 1, 1]
// CHECK-COUNT-3: tensor.insert_slice
// CHECK-NOT:   linalg.fill
#x = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 2 + d3, d4)>
#w = affine_map<(d0, d1, d2, d3, d4) -> (d3, d4, d2)>
#y = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @f(%x: tensor<1x9x2xf32>, %w: tensor<3x2x4xf32> {pp.parameter}) -> tensor<1x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  // expected-remark @below {{split into 4 pieces along loop d2 (range 4): 1.92E+02 FLOP, 100.0% of @f}}
  %y = linalg.generic {indexing_maps = [#x, #w, #y], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %w : tensor<1x9x2xf32>, tensor<3x2x4xf32>) outs(%init : tensor<1x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x4xf32>
  return %y : tensor<1x4x4xf32>
}

// -----

// Left alone: an op whose body reads its loop indices (%indexed, 54.5% of
// the 88 FLOP), an op below the share (%small, 9.1%), and a producer
// another op also uses (%indexed is sliced for %big's two pieces, not split
// with it, and stays).
// CHECK-LABEL: func.func @f(
// CHECK:       %[[E2:.+]] = linalg.generic
// CHECK:       linalg.index
// CHECK:       tensor.extract_slice %[[E2]][0] [4] [1] : tensor<8xf32> to tensor<4xf32>
// CHECK:       tensor.extract_slice %[[E2]][4] [4] [1] : tensor<8xf32> to tensor<4xf32>
// CHECK:       %[[SMALL:.+]] = linalg.generic {{.*}} ins(%[[E2]] : tensor<8xf32>)
#v = affine_map<(d0) -> (d0)>
func.func @f(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %indexed = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %i = linalg.index 0 : index
    %j = arith.index_cast %i : index to i32
    %f = arith.sitofp %j : i32 to f32
    %s = arith.addf %a, %f : f32
    %t = arith.mulf %s, %s : f32
    %u = arith.mulf %t, %s : f32
    linalg.yield %u : f32
  } -> tensor<8xf32>
  // expected-remark @below {{split into 2 pieces along loop d0 (range 8): 3.20E+01 FLOP, 36.4% of @f}}
  %big = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%indexed : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = math.exp %a : f32
    %t = arith.mulf %s, %s : f32
    %u = arith.mulf %t, %s : f32
    %v = arith.mulf %u, %s : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %small = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%indexed : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = math.exp %a : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %indexed, %big, %small : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// An op reading one value twice, along different dimensions (R + R^T
// times R): each piece takes rows of the first operand and columns of the
// second, and the producer of R (an exponential that only this op uses) is
// split for each, then erased once.
// CHECK-LABEL: func.func @f(
// CHECK-SAME:    %[[X:.+]]: tensor<8x8xf32>
// CHECK:       %[[ROWS:.+]] = tensor.extract_slice %[[X]][0, 0] [3, 8] [1, 1] : tensor<8x8xf32> to tensor<3x8xf32>
// CHECK:       %[[R0:.+]] = linalg.generic {{.*}} ins(%[[ROWS]] : tensor<3x8xf32>)
// CHECK:       %[[COLS:.+]] = tensor.extract_slice %[[X]][0, 0] [8, 3] [1, 1] : tensor<8x8xf32> to tensor<8x3xf32>
// CHECK:       %[[C0:.+]] = linalg.generic {{.*}} ins(%[[COLS]] : tensor<8x3xf32>)
// CHECK:       linalg.generic {{.*}} ins(%[[R0]], %[[C0]] : tensor<3x8xf32>, tensor<8x3xf32>)
// CHECK-COUNT-2: tensor.insert_slice
// CHECK-NOT:   ins(%[[X]] : tensor<8x8xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @f(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  // expected-remark @below {{split into 3 pieces along loop d0 (range 8): 2.56E+02 FLOP, 80.0% of @f}}
  %s = linalg.generic {indexing_maps = [#id, #tr, #id], iterator_types = ["parallel", "parallel"]} ins(%r, %r : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %u = arith.addf %a, %b : f32
    %v = arith.mulf %u, %a : f32
    %w = arith.mulf %v, %b : f32
    %z = arith.mulf %w, %u : f32
    linalg.yield %z : f32
  } -> tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}
