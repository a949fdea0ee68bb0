// --compare=G runs --entry and G on the same inputs and compares every
// result: bitwise, else the max absolute and relative difference. Without
// --tolerance only bitwise equality passes; with --tolerance=T a max
// relative difference up to T does.

// A two-layer MLP, the same MLP cut into two stages, and the MLP with its
// matmuls written as linalg.generic: bitwise equal.
// RUN: pp-exec %s --entry=mlp --compare=staged --seed=5 | FileCheck %s --check-prefix=STAGED
// RUN: pp-exec %s --entry=mlp --compare=generic_mlp --seed=5 | FileCheck %s --check-prefix=GENERIC
// STAGED:      compare @mlp and @staged on the same 3 inputs
// STAGED-NEXT:   result 0 (tensor<4x3xf32>): bitwise equal
// STAGED-NEXT: compare: results bitwise equal
// GENERIC:     compare: results bitwise equal

// A different function: reported, exit status 1.
// RUN: not pp-exec %s --entry=mlp --compare=mlp_scaled --seed=5 | FileCheck %s --check-prefix=SCALED
// SCALED:      compare @mlp and @mlp_scaled on the same 3 inputs
// SCALED-NEXT:   result 0 (tensor<4x3xf32>): {{[0-9]+}} of 12 elements differ, max abs difference {{.*}} at [{{[0-9]+}}, {{[0-9]}}] ({{.*}} vs {{.*}}), max relative difference 0.0009
// SCALED-NEXT: compare: results differ: max abs difference {{.*}}, max relative difference 0.0009{{[0-9]*}} (not bitwise equal; --tolerance=T accepts relative differences up to T)
// RUN: not pp-exec %s --entry=mlp --compare=mlp_scaled --seed=5 --tolerance=1e-4 | FileCheck %s --check-prefix=SCALED-TOL
// SCALED-TOL: compare: results differ: max abs difference {{.*}}, max relative difference 0.0009{{[0-9]*}} > tolerance 0.0001

// Summing in another order rounds differently: not bitwise equal, but
// within a tolerance.
// RUN: not pp-exec %s --entry=sum_left --compare=sum_right --seed=1 | FileCheck %s --check-prefix=ORDER
// RUN: pp-exec %s --entry=sum_left --compare=sum_right --seed=1 --tolerance=1e-5 | FileCheck %s --check-prefix=ORDER-TOL
// ORDER:      result 0 (tensor<64xf32>): {{[0-9]+}} of 64 elements differ
// ORDER:      compare: results differ
// ORDER-TOL:  compare: results differ: max abs difference {{.*}}, max relative difference {{.*}} <= tolerance 1e-05

// Several results: each compared.
// RUN: not pp-exec %s --entry=two --compare=two_swapped | FileCheck %s --check-prefix=TWO
// TWO:      result 0 (tensor<2xf32>): bitwise equal
// TWO-NEXT: result 1 (tensor<2xf32>): 1 of 2 elements differ, max abs difference 1 at [1] (2 vs 3), max relative difference 0.333333333

// NaN in both results is no agreement, although its bits are equal: the
// comparison fails naming the first non-finite value (issue 1/7).
// RUN: not pp-exec %s --entry=sqrt_negative --compare=sqrt_negative_too | FileCheck %s --check-prefix=NAN
// NAN:      result 0 (tensor<2xf32>): bitwise equal
// NAN-NEXT: compare: FAILED: result 0 of @sqrt_negative is not finite at [1] (nan)

#map_a = affine_map<(i, j, k) -> (i, k)>
#map_b = affine_map<(i, j, k) -> (k, j)>
#map_c = affine_map<(i, j, k) -> (i, j)>

func.func @stage0(%x: tensor<4x8xf32>, %w1: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.max ins(%h, %zeros : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

func.func @stage1(%h: tensor<4x16xf32>, %w2: tensor<16x3xf32>) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %y = linalg.matmul ins(%h, %w2 : tensor<4x16xf32>, tensor<16x3xf32>) outs(%z : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

func.func @mlp(%x: tensor<4x8xf32>, %w1: tensor<8x16xf32>, %w2: tensor<16x3xf32>) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.max ins(%h, %zeros : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e2 = tensor.empty() : tensor<4x3xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %y = linalg.matmul ins(%r, %w2 : tensor<4x16xf32>, tensor<16x3xf32>) outs(%z2 : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

func.func @staged(%x: tensor<4x8xf32>, %w1: tensor<8x16xf32>, %w2: tensor<16x3xf32>) -> tensor<4x3xf32> {
  %h = call @stage0(%x, %w1) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %y = call @stage1(%h, %w2) : (tensor<4x16xf32>, tensor<16x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

func.func @generic_mlp(%x: tensor<4x8xf32>, %w1: tensor<8x16xf32>, %w2: tensor<16x3xf32>) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h = linalg.generic {indexing_maps = [#map_a, #map_b, #map_c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) {
  ^bb0(%va: f32, %vb: f32, %acc: f32):
    %p = arith.mulf %va, %vb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %r = linalg.map ins(%h : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>)
    (%v: f32, %unused: f32) {
      %m = arith.maximumf %v, %zero : f32
      linalg.yield %m : f32
    }
  %e2 = tensor.empty() : tensor<4x3xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %y = linalg.generic {indexing_maps = [#map_a, #map_b, #map_c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%r, %w2 : tensor<4x16xf32>, tensor<16x3xf32>) outs(%z2 : tensor<4x3xf32>) {
  ^bb0(%va: f32, %vb: f32, %acc: f32):
    %p = arith.mulf %va, %vb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

func.func @mlp_scaled(%x: tensor<4x8xf32>, %w1: tensor<8x16xf32>, %w2: tensor<16x3xf32>) -> tensor<4x3xf32> {
  %y = call @mlp(%x, %w1, %w2) : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<16x3xf32>) -> tensor<4x3xf32>
  %s = arith.constant dense<1.001> : tensor<4x3xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %r = linalg.mul ins(%y, %s : tensor<4x3xf32>, tensor<4x3xf32>) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// (a + b) + c against a + (b + c), with c 1000 times larger.
func.func @sum_left(%a: tensor<64xf32>, %b: tensor<64xf32>, %c: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %k = arith.constant dense<1000.0> : tensor<64xf32>
  %big = linalg.mul ins(%c, %k : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %ab = linalg.add ins(%a, %b : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.add ins(%ab, %big : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}
func.func @sum_right(%a: tensor<64xf32>, %b: tensor<64xf32>, %c: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %k = arith.constant dense<1000.0> : tensor<64xf32>
  %big = linalg.mul ins(%c, %k : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %bc = linalg.add ins(%b, %big : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.add ins(%a, %bc : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}

func.func @two() -> (tensor<2xf32>, tensor<2xf32>) {
  %a = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %a, %a : tensor<2xf32>, tensor<2xf32>
}
func.func @two_swapped() -> (tensor<2xf32>, tensor<2xf32>) {
  %a = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = arith.constant dense<[1.0, 3.0]> : tensor<2xf32>
  return %a, %b : tensor<2xf32>, tensor<2xf32>
}

func.func @sqrt_negative() -> tensor<2xf32> {
  %a = arith.constant dense<[4.0, -1.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<2xf32>
  %r = linalg.sqrt ins(%a : tensor<2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
func.func @sqrt_negative_too() -> tensor<2xf32> {
  %a = arith.constant dense<[4.0, -1.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<2xf32>
  %r = linalg.sqrt ins(%a : tensor<2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
