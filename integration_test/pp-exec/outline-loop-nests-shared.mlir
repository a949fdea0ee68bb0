// Loop nests that outline to the same function (the same op on the same
// types: here two sums of 8 floats, from different buffers) share it: one
// function, called twice, compiled once (docs/Execution.md, step 6c). The
// results are those of separate nests.
// RUN: pp-exec %s --entry=g | FileCheck %s
// RUN: pp-exec %s --entry=g --print-lowered 2>&1 >/dev/null | FileCheck %s --check-prefix=LOWERED

// CHECK:      @g result 0: tensor<f32>
// CHECK:        values = [28]
// CHECK:      @g result 1: tensor<f32>
// CHECK:        values = [-28]
// CHECK:      @g result 2: tensor<f32>
// CHECK:        values = [7]

// The nests of @g: the fill, then per sum a copy of the filled zero into
// the sum's buffer (nest 1 and nest 3) and the sum (nest 2 and nest 4), then
// the maximum (nest 5, in place in the filled buffer: no copy). Nests 3 and
// 4 call nests 1 and 2.
// LOWERED:       llvm.func @g_nest2(
// LOWERED-NOT:   llvm.func @g_nest{{[34]}}(
// LOWERED:       llvm.func @g_nest5(
// LOWERED-LABEL: llvm.func @g(
// LOWERED:       llvm.call @g_nest0(
// LOWERED:       llvm.call @g_nest1(
// LOWERED:       llvm.call @g_nest2(
// LOWERED:       llvm.call @g_nest1(
// LOWERED:       llvm.call @g_nest2(
// LOWERED:       llvm.call @g_nest5(
// LOWERED:       llvm.return

#id = affine_map<(i) -> (i)>
#sum = affine_map<(i) -> ()>
func.func @g() -> (tensor<f32>, tensor<f32>, tensor<f32>) {
  %x = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %y = arith.constant dense<[0.0, -1.0, -2.0, -3.0, -4.0, -5.0, -6.0, -7.0]> : tensor<8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %sx = linalg.generic {indexing_maps = [#id, #sum], iterator_types = ["reduction"]} ins(%x : tensor<8xf32>) outs(%z : tensor<f32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %o, %v : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %sy = linalg.generic {indexing_maps = [#id, #sum], iterator_types = ["reduction"]} ins(%y : tensor<8xf32>) outs(%z : tensor<f32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %o, %v : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %mx = linalg.generic {indexing_maps = [#id, #sum], iterator_types = ["reduction"]} ins(%x : tensor<8xf32>) outs(%z : tensor<f32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %o, %v : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %sx, %sy, %mx : tensor<f32>, tensor<f32>, tensor<f32>
}
