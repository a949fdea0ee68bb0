// A function with several loop nests gets one function per nest (@F_nestK,
// never inlined: passthrough ["noinline"]), called in order, with the
// constants it uses cloned in; a function with one nest (@single, not
// vectorized: one elementwise loop into its result) keeps it inline
// (docs/Execution.md, "Lowering"). The results are those of the loops.
// RUN: pp-exec %s --entry=f | FileCheck %s
// RUN: pp-exec %s --entry=f --print-lowered 2>&1 >/dev/null | FileCheck %s --check-prefix=LOWERED
// RUN: pp-exec %s --entry=single --no-vectorize --print-lowered 2>&1 >/dev/null | FileCheck %s --check-prefix=SINGLE

// CHECK:      @f result 0: tensor<8xf32>
// CHECK-NEXT:   sum = 72, sum of squares = 816
// CHECK-NEXT:   values = [2, 4, 6, 8, 10, 12, 14, 16]
// CHECK-NEXT: @f result 1: tensor<f32>
// CHECK:        values = [72]

// Two nests: a copy into the result, and the sum; the elementwise ops fuse
// and vectorize into one 8-wide vector of straight-line code, no loop, which
// stays in @f.
// LOWERED-NOT: llvm.func @f_nest2
// LOWERED:     llvm.func @f_nest0({{.*}}) attributes {passthrough = ["noinline"]
// LOWERED:     llvm.func @f_nest1({{.*}}) attributes {passthrough = ["noinline"]
// LOWERED:       llvm.fadd
// LOWERED-LABEL: llvm.func @f(
// LOWERED:       llvm.fmul {{.*}} : vector<8xf32>
// LOWERED:       llvm.call @f_nest0(
// LOWERED:       llvm.call @f_nest1(
// LOWERED:       llvm.return

// SINGLE-NOT:  _nest
// SINGLE:      llvm.func @single(
// SINGLE:        llvm.fadd
// SINGLE:        llvm.return
// SINGLE-NOT:  _nest

#id = affine_map<(i) -> (i)>
#sum = affine_map<(i) -> ()>
func.func @f() -> (tensor<8xf32>, tensor<f32>) {
  %x = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %c1 = arith.constant 1.0 : f32
  %c2 = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %c1 : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %c2 : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %z = arith.constant dense<0.0> : tensor<f32>
  %s = linalg.generic {indexing_maps = [#id, #sum], iterator_types = ["reduction"]} ins(%b : tensor<8xf32>) outs(%z : tensor<f32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %o, %v : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %b, %s : tensor<8xf32>, tensor<f32>
}

func.func @single(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %a : tensor<8xf32>
}
