// A rank program whose calls repeat, the micro-batch-like constant growing
// by one, is compiled with its steady state rolled into a loop
// (pp-roll-rank-programs, docs/Execution.md "Rank programs"): each @mix
// reads the results of the two calls before it, which the loop carries in
// its iteration arguments. It computes exactly what the same function
// without pp.rank does, unrolled: the two results' .npy files are the same
// bytes.
// RUN: rm -rf %t && mkdir -p %t
// RUN: pp-exec %s --entry=rank --outputs=%t | FileCheck %s
// RUN: pp-exec %s --entry=plain --outputs=%t | FileCheck %s
// RUN: cmp %t/rank.result0.npy %t/plain.result0.npy
// RUN: pp-exec %s --entry=rank --print-lowered 2>&1 >/dev/null | FileCheck %s --check-prefix=LOWERED
// RUN: pp-exec %s --entry=plain --print-lowered 2>&1 >/dev/null | FileCheck %s --check-prefix=PLAIN-LOWERED

// CHECK: result 0: tensor<64xf32>

// Ten calls become the two before the loop, one in it, and the last.
// LOWERED-LABEL: llvm.func @rank(
// LOWERED-COUNT-2: llvm.call @mix(
// LOWERED:         llvm.cond_br
// LOWERED:         llvm.call @mix(
// LOWERED:         llvm.br ^bb1
// LOWERED:         llvm.call @mix(
// LOWERED-NOT:     llvm.call @mix(
// LOWERED:         llvm.return
// PLAIN-LOWERED-LABEL: llvm.func @plain(
// PLAIN-LOWERED-COUNT-10: llvm.call @mix(
// PLAIN-LOWERED-NOT:     llvm.call @mix(
// PLAIN-LOWERED:         llvm.return

#id = affine_map<(i) -> (i)>
func.func @mix(%x: tensor<64xf32>, %y: tensor<64xf32>, %i: i64) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %half = arith.constant 0.5 : f32
  %quarter = arith.constant 0.25 : f32
  %fi = arith.sitofp %i : i64 to f32
  %z = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %y : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %half : f32
    %q = arith.mulf %b, %quarter : f32
    %s = arith.addf %p, %q : f32
    %r = arith.addf %s, %fi : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %z : tensor<64xf32>
}

func.func @rank() -> tensor<64xf32> attributes {pp.rank = 0 : i64} {
  %x = arith.constant dense<1.0> : tensor<64xf32>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  %c5 = arith.constant 5 : i64
  %c6 = arith.constant 6 : i64
  %c7 = arith.constant 7 : i64
  %c8 = arith.constant 8 : i64
  %c9 = arith.constant 9 : i64
  %a0 = call @mix(%x, %x, %c0) : (tensor<64xf32>, tensor<64xf32>, i64) -> tensor<64xf32>
  %a1 = call @mix(%a0, %x, %c1) : (tensor<64xf32>, tensor<64xf32>, i64) -> tensor<64xf32>
  %a2 = call @mix(%a1, %a0, %c2) : (tensor<64xf32>, tensor<64xf32>, i64) -> tensor<64xf32>
  %a3 = call @mix(%a2, %a1, %c3) : (tensor<64xf32>, tensor<64xf32>, i64) -> tensor<64xf32>
  %a4 = call @mix(%a3, %a2, %c4) : (tensor<64xf32>, tensor<64xf32>, i64) -> tensor<64xf32>
  %a5 = call @mix(%a4, %a3, %c5) : (tensor<64xf32>, tensor<64xf32>, i64) -> tensor<64xf32>
  %a6 = call @mix(%a5, %a4, %c6) : (tensor<64xf32>, tensor<64xf32>, i64) -> tensor<64xf32>
  %a7 = call @mix(%a6, %a5, %c7) : (tensor<64xf32>, tensor<64xf32>, i64) -> tensor<64xf32>
  %a8 = call @mix(%a7, %a6, %c8) : (tensor<64xf32>, tensor<64xf32>, i64) -> tensor<64xf32>
  %a9 = call @mix(%a8, %a7, %c9) : (tensor<64xf32>, tensor<64xf32>, i64) -> tensor<64xf32>
  return %a9 : tensor<64xf32>
}

func.func @plain() -> tensor<64xf32> {
  %x = arith.constant dense<1.0> : tensor<64xf32>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  %c5 = arith.constant 5 : i64
  %c6 = arith.constant 6 : i64
  %c7 = arith.constant 7 : i64
  %c8 = arith.constant 8 : i64
  %c9 = arith.constant 9 : i64
  %a0 = call @mix(%x, %x, %c0) : (tensor<64xf32>, tensor<64xf32>, i64) -> tensor<64xf32>
  %a1 = call @mix(%a0, %x, %c1) : (tensor<64xf32>, tensor<64xf32>, i64) -> tensor<64xf32>
  %a2 = call @mix(%a1, %a0, %c2) : (tensor<64xf32>, tensor<64xf32>, i64) -> tensor<64xf32>
  %a3 = call @mix(%a2, %a1, %c3) : (tensor<64xf32>, tensor<64xf32>, i64) -> tensor<64xf32>
  %a4 = call @mix(%a3, %a2, %c4) : (tensor<64xf32>, tensor<64xf32>, i64) -> tensor<64xf32>
  %a5 = call @mix(%a4, %a3, %c5) : (tensor<64xf32>, tensor<64xf32>, i64) -> tensor<64xf32>
  %a6 = call @mix(%a5, %a4, %c6) : (tensor<64xf32>, tensor<64xf32>, i64) -> tensor<64xf32>
  %a7 = call @mix(%a6, %a5, %c7) : (tensor<64xf32>, tensor<64xf32>, i64) -> tensor<64xf32>
  %a8 = call @mix(%a7, %a6, %c8) : (tensor<64xf32>, tensor<64xf32>, i64) -> tensor<64xf32>
  %a9 = call @mix(%a8, %a7, %c9) : (tensor<64xf32>, tensor<64xf32>, i64) -> tensor<64xf32>
  return %a9 : tensor<64xf32>
}
