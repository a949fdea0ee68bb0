// Window copies (docs/Execution.md, step 2): the copies pp-im2col makes into
// a convolution's column matrix, `linalg.generic`s whose input map has
// windows (`oh + kh`), are tiled with extent 1 in every loop but the
// output's innermost one and copied one contiguous run at a time, a vector
// read and a vector write (lib/Execution/WindowCopies.cpp): the forward's
// layout (n, c, kh, kw, oh, ow) in runs of ow, the weight gradient's
// (n, oh, ow, c, kh, kw) in runs of kw. The copies are exact: the same bits
// as the scalar loops.
// RUN: pp-exec %s --entry=im2col --seed=5 --print-values=100000 > %t.vec
// RUN: pp-exec %s --entry=im2col --seed=5 --print-values=100000 --no-vectorize > %t.loops
// RUN: diff %t.vec %t.loops
// RUN: FileCheck %s < %t.vec
// RUN: pp-exec %s --entry=im2col --print-lowered 2>&1 >/dev/null | FileCheck %s --check-prefix=LOWERED
// RUN: pp-exec %s --entry=im2col --print-lowered --no-vectorize 2>&1 >/dev/null | FileCheck %s --check-prefix=SCALAR

// CHECK: @im2col result 0: tensor<2x3x5x5x8x8xf32>
// CHECK: @im2col result 1: tensor<2x8x8x3x5x5xf32>

// LOWERED-DAG: llvm.load {{.*}} -> vector<8xf32>
// LOWERED-DAG: llvm.store {{.*}} : vector<8xf32>, !llvm.ptr
// LOWERED-DAG: llvm.load {{.*}} -> vector<5xf32>
// LOWERED-DAG: llvm.store {{.*}} : vector<5xf32>, !llvm.ptr
// SCALAR-NOT: vector<8xf32>
// SCALAR-NOT: vector<5xf32>

#x = affine_map<(n, c, kh, kw, oh, ow) -> (n, c, oh + kh, ow + kw)>
#xw = affine_map<(n, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>
#id = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
func.func @im2col(%x: tensor<2x3x12x12xf32>) -> (tensor<2x3x5x5x8x8xf32>, tensor<2x8x8x3x5x5xf32>) {
  %e = tensor.empty() : tensor<2x3x5x5x8x8xf32>
  %col = linalg.generic {indexing_maps = [#x, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<2x3x12x12xf32>) outs(%e : tensor<2x3x5x5x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x3x5x5x8x8xf32>
  %ew = tensor.empty() : tensor<2x8x8x3x5x5xf32>
  %colw = linalg.generic {indexing_maps = [#xw, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<2x3x12x12xf32>) outs(%ew : tensor<2x8x8x3x5x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x8x8x3x5x5xf32>
  return %col, %colw : tensor<2x3x5x5x8x8xf32>, tensor<2x8x8x3x5x5xf32>
}
