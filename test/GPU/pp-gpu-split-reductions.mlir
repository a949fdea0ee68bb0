// RUN: pp-opt %s -pass-pipeline='builtin.module(func.func(pp-gpu-split-reductions))' -split-input-file | FileCheck %s

// A squared error summed to a scalar over 1 x 40 x 1536 = 61440 elements:
// the three reduction dimensions fold into one, which splits into 1024
// partial sums of 60 (one per GPU thread) and a final sum of the 1024.
// CHECK-LABEL: func.func @loss
// CHECK:      tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2]] : tensor<1x40x1536xf32> into tensor<61440xf32>
// CHECK:      tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [1024, 60] : tensor<61440xf32> into tensor<1024x60xf32>
// CHECK:      %[[PARTIAL:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} outs(%{{.*}} : tensor<1024xf32>)
// CHECK:        arith.subf
// CHECK:        arith.mulf
// CHECK:        arith.addf
// CHECK:      linalg.generic {{.*}}iterator_types = ["reduction"]{{.*}} ins(%[[PARTIAL]] : tensor<1024xf32>) outs(%{{.*}} : tensor<f32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   arith.addf
#in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out = affine_map<(d0, d1, d2) -> ()>
func.func @loss(%x: tensor<1x40x1536xf32>, %t: tensor<1x40x1536xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [#in, #in, #out], iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%x, %t : tensor<1x40x1536xf32>, tensor<1x40x1536xf32>) outs(%z : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %d = arith.subf %a, %b : f32
    %s = arith.mulf %d, %d : f32
    %n = arith.addf %acc, %s : f32
    linalg.yield %n : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// Small reductions (below min-size) and reductions with a parallel
// dimension (each thread already has its row) stay as they are.
// CHECK-LABEL: func.func @small_and_rows
// CHECK-NOT: tensor.expand_shape
// CHECK: iterator_types = ["reduction"]
// CHECK: iterator_types = ["parallel", "reduction"]
#v = affine_map<(d0) -> (d0)>
#s = affine_map<(d0) -> ()>
#rows_in = affine_map<(d0, d1) -> (d0, d1)>
#rows_out = affine_map<(d0, d1) -> (d0)>
func.func @small_and_rows(%x: tensor<10xf32>, %m: tensor<64x8192xf32>, %acc: tensor<f32>, %r: tensor<64xf32>) -> (tensor<f32>, tensor<64xf32>) {
  %a = linalg.generic {indexing_maps = [#v, #s], iterator_types = ["reduction"]} ins(%x : tensor<10xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%p: f32, %q: f32):
    %0 = arith.addf %p, %q : f32
    linalg.yield %0 : f32
  } -> tensor<f32>
  %b = linalg.generic {indexing_maps = [#rows_in, #rows_out], iterator_types = ["parallel", "reduction"]} ins(%m : tensor<64x8192xf32>) outs(%r : tensor<64xf32>) {
  ^bb0(%p: f32, %q: f32):
    %0 = arith.addf %p, %q : f32
    linalg.yield %0 : f32
  } -> tensor<64xf32>
  return %a, %b : tensor<f32>, tensor<64xf32>
}
