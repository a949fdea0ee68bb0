// Elementwise ops on i1 tensors (masks, comparisons: one-hot labels from
// PyTorch's `ids == classes`) run as scalar loops: an i1 lives in one byte
// in memory but packs into bits in an LLVM vector, so a vector load of a
// mask read the wrong bits (one 1 where four were due). Found through the
// PyTorch exporter (docs/Frontends.md).
// RUN: pp-exec %s --entry=onehot --print-values=32 | FileCheck %s
// RUN: pp-exec %s --entry=onehot --print-values=32 --no-vectorize | FileCheck %s
// CHECK: sum = 4, sum of squares = 4
// CHECK-NEXT: values = [1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]
func.func @onehot() -> tensor<4x8xf32> {
  %ids = arith.constant dense<[0, 1, 5, 7]> : tensor<4xi64>
  %cls = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi64>
  %r = func.call @eq(%ids, %cls) : (tensor<4xi64>, tensor<8xi64>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
func.func @eq(%ids: tensor<4xi64>, %cls: tensor<8xi64>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xi1>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ids, %cls : tensor<4xi64>, tensor<8xi64>) outs(%e : tensor<4x8xi1>) {
  ^bb0(%a: i64, %c: i64, %o: i1):
    %q = arith.cmpi eq, %a, %c : i64
    linalg.yield %q : i1
  } -> tensor<4x8xi1>
  %f = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<4x8xi1>) outs(%f : tensor<4x8xf32>) {
  ^bb0(%a: i1, %o: f32):
    %x = arith.uitofp %a : i1 to f32
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
