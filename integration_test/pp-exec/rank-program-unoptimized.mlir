// A rank program (attribute pp.rank, as convert-pp-to-runtime makes them)
// is compiled without optimization, in an object of its own at
// CodeGenOptLevel::None (docs/Execution.md, "Rank programs"): its loop
// nests are outlined even when it has only one (a loop in unoptimized code
// would run slowly), and it is `optnone`. It computes what it would
// optimized; the function without the attribute keeps its single nest
// (the loop of its vector stores).
// RUN: pp-exec %s --entry=rank | FileCheck %s
// RUN: pp-exec %s --entry=plain | FileCheck %s --check-prefix=PLAIN
// RUN: pp-exec %s --entry=rank --print-lowered 2>&1 >/dev/null | FileCheck %s --check-prefix=LOWERED

// CHECK:      @rank result 0: tensor<64xf32>
// CHECK:        sum = 192, sum of squares = 576
// PLAIN:      @plain result 0: tensor<64xf32>
// PLAIN:        sum = 192, sum of squares = 576

// LOWERED:       llvm.func @rank_nest0(
// LOWERED-LABEL: llvm.func @rank(
// LOWERED-SAME:  passthrough = ["noinline", "optnone", ["pp-rank-program", ""]]
// LOWERED:       llvm.call @rank_nest0(
// LOWERED:       llvm.return
// RUN: pp-exec %s --entry=plain --print-lowered 2>&1 >/dev/null | FileCheck %s --check-prefix=PLAIN-LOWERED
// PLAIN-LOWERED-NOT: llvm.func @plain_nest
// PLAIN-LOWERED-NOT: optnone
// PLAIN-LOWERED:     llvm.func @plain(
// PLAIN-LOWERED:     llvm.cond_br
// PLAIN-LOWERED:     llvm.store
// PLAIN-LOWERED:     llvm.return

#id = affine_map<(i) -> (i)>
func.func @rank() -> tensor<64xf32> attributes {pp.rank = 0 : i64} {
  %x = arith.constant dense<1.5> : tensor<64xf32>
  %e = tensor.empty() : tensor<64xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %y : tensor<64xf32>
}

func.func @plain() -> tensor<64xf32> {
  %x = arith.constant dense<1.5> : tensor<64xf32>
  %e = tensor.empty() : tensor<64xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %y : tensor<64xf32>
}
