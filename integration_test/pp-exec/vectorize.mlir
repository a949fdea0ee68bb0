// Register tiling and vectorization (docs/Execution.md): results are
// bitwise those of the scalar loop nests, for tile shapes that divide the
// extents evenly or not at all, square tiles, broadcasts, transposes,
// reductions along either dimension, and integers. Values are printed in
// full (shortest round-trip form), so equal text is equal bits.
// RUN: pp-exec %s --entry=mixed --seed=3 --print-values=100000 > %t.vec
// RUN: pp-exec %s --entry=mixed --seed=3 --print-values=100000 --no-vectorize > %t.loops
// RUN: pp-exec %s --entry=mixed --seed=3 --print-values=100000 --no-vectorize --no-interchange > %t.naive
// RUN: diff %t.vec %t.loops
// RUN: diff %t.vec %t.naive
// RUN: pp-exec %s --entry=small | FileCheck %s --check-prefix=SMALL

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

func.func @mixed(%a: tensor<24x37xf32>, %b: tensor<37x48xf32>, %c: tensor<8x8xf32>,
                 %d: tensor<48x24xf32>, %r: tensor<24xf32>, %i: tensor<24x48xi32>)
    -> (tensor<24x48xf32>, tensor<8x8xf32>, tensor<24x48xf32>, tensor<24xf32>,
        tensor<48xf32>, tensor<24x48xi32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<24x48xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<24x48xf32>) -> tensor<24x48xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<24x37xf32>, tensor<37x48xf32>) outs(%f0 : tensor<24x48xf32>) -> tensor<24x48xf32>
  // A square tile (8 rows, 8 columns).
  %e1 = tensor.empty() : tensor<8x8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sq = linalg.matmul ins(%c, %c : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f1 : tensor<8x8xf32>) -> tensor<8x8xf32>
  // Transposed input plus a row broadcast, then tanh (libm per element).
  %ew = linalg.generic {indexing_maps = [#tr, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d, %r : tensor<48x24xf32>, tensor<24xf32>) outs(%e0 : tensor<24x48xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<24x48xf32>
  // Row sums (reduction innermost) and column sums (reduction outermost).
  %e2 = tensor.empty() : tensor<24xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<24xf32>) -> tensor<24xf32>
  %rows = linalg.reduce { arith.addf } ins(%mm : tensor<24x48xf32>) outs(%f2 : tensor<24xf32>) dimensions = [1]
  %e3 = tensor.empty() : tensor<48xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<48xf32>) -> tensor<48xf32>
  %cols = linalg.reduce { arith.addf } ins(%mm : tensor<24x48xf32>) outs(%f3 : tensor<48xf32>) dimensions = [0]
  %e4 = tensor.empty() : tensor<24x48xi32>
  %ii = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%i : tensor<24x48xi32>) outs(%e4 : tensor<24x48xi32>) {
  ^bb0(%x: i32, %o: i32):
    %m = arith.muli %x, %x : i32
    linalg.yield %m : i32
  } -> tensor<24x48xi32>
  return %mm, %sq, %ew, %rows, %cols, %ii
      : tensor<24x48xf32>, tensor<8x8xf32>, tensor<24x48xf32>, tensor<24xf32>, tensor<48xf32>, tensor<24x48xi32>
}

// A 2x2 matmul: square tiles of 2 once gave [19, 50, 19, 50].
// SMALL: values = [19, 22, 43, 50]
func.func @small() -> tensor<2x2xf32> {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = arith.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%a, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m : tensor<2x2xf32>
}
