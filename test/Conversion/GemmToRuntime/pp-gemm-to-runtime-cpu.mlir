// The CPU back end of the same lowering: calls to pprt_cpu_gemm_* (OpenBLAS
// in the runtime), not marked stream-ordered; what cannot be a GEMM stays a
// linalg op with a remark.
// RUN: pp-opt %s -pp-gemm-to-runtime=target=cpu -verify-diagnostics -split-input-file | FileCheck %s
// RUN: not pp-opt %s -split-input-file -pp-gemm-to-runtime=target=tpu 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: error: option 'target' must be cpu or gpu, not 'tpu'

// CHECK-LABEL: func.func @matmul
// CHECK: call @pprt_cpu_gemm_f64(
// CHECK-NOT: linalg.matmul
// CHECK: func.func private @pprt_cpu_gemm_f64(i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64, i64, i64){{$}}
func.func @matmul(%a: memref<4x8xf64>, %b: memref<8x16xf64>, %c: memref<4x16xf64>) {
  linalg.matmul ins(%a, %b : memref<4x8xf64>, memref<8x16xf64>) outs(%c : memref<4x16xf64>)
  return
}

// -----

// Integers have no BLAS GEMM.
// CHECK-LABEL: func.func @integers
// CHECK: linalg.matmul
func.func @integers(%a: memref<4x8xi32>, %b: memref<8x16xi32>, %c: memref<4x16xi32>) {
  // expected-remark @below {{contraction left to loops, not BLAS: element type is neither f32 nor f64}}
  linalg.matmul ins(%a, %b : memref<4x8xi32>, memref<8x16xi32>) outs(%c : memref<4x16xi32>)
  return
}

// -----

// pp-im2col's forward contraction on buffers, its image (d0) pinned as the
// batch: 2 GEMMs of the filter (4 x 27, batch stride 0) by each image's
// column matrix (27 x 16, batch stride 432) into its output (4 x 16, batch
// stride 64).
// CHECK-LABEL: func.func @im2col_forward
// CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : i64
// CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : i64
// CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : i64
// CHECK-DAG:   %[[C16:.+]] = arith.constant 16 : i64
// CHECK-DAG:   %[[C27:.+]] = arith.constant 27 : i64
// CHECK-DAG:   %[[C64:.+]] = arith.constant 64 : i64
// CHECK-DAG:   %[[C432:.+]] = arith.constant 432 : i64
// CHECK:       call @pprt_cpu_gemm_f32(%[[C2]], %[[C4]], %[[C16]], %[[C27]], %[[C0]], %[[C0]], %{{.+}}, %[[C27]], %[[C0]], %{{.+}}, %[[C16]], %[[C432]], %{{.+}}, %[[C16]], %[[C64]], %{{.+}})
func.func @im2col_forward(%col: memref<2x3x3x3x4x4xf32>, %w: memref<4x3x3x3xf32>, %y: memref<2x4x4x4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, kh, kw, oh, ow)>, affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>, affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%col, %w : memref<2x3x3x3x4x4xf32>, memref<4x3x3x3xf32>) outs(%y : memref<2x4x4x4xf32>) attrs = {pp.gemm_batch = 0 : i64} {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The weight gradient: the image is a reduction, so the 2 images' products
// (A = dY[n], 4 x 16, batch stride 64, by B = the image's column matrix,
// 16 x 27, batch stride 432) accumulate into one C (batch stride 0), in
// order.
// CHECK-LABEL: func.func @im2col_weight_gradient
// CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : i64
// CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : i64
// CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : i64
// CHECK-DAG:   %[[C16:.+]] = arith.constant 16 : i64
// CHECK-DAG:   %[[C27:.+]] = arith.constant 27 : i64
// CHECK-DAG:   %[[C64:.+]] = arith.constant 64 : i64
// CHECK-DAG:   %[[C432:.+]] = arith.constant 432 : i64
// CHECK:       call @pprt_cpu_gemm_f32(%[[C2]], %[[C4]], %[[C27]], %[[C16]], %[[C0]], %[[C0]], %{{.+}}, %[[C16]], %[[C64]], %{{.+}}, %[[C27]], %[[C432]], %{{.+}}, %[[C27]], %[[C0]], %{{.+}})
func.func @im2col_weight_gradient(%col: memref<2x4x4x3x3x3xf32>, %dy: memref<2x4x4x4xf32>, %dw: memref<4x3x3x3xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, f, oh, ow, c, kh, kw) -> (n, oh, ow, c, kh, kw)>, affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>, affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>], iterator_types = ["reduction", "parallel", "reduction", "reduction", "parallel", "parallel", "parallel"]}
      ins(%col, %dy : memref<2x4x4x3x3x3xf32>, memref<2x4x4x4xf32>) outs(%dw : memref<4x3x3x3xf32>) attrs = {pp.gemm_batch = 0 : i64} {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %b, %a : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A batch pinned as none (-1: pinGemmBatches found that the plain GEMM fits
// row-major buffers): with these layouts it does not, and no batch is tried
// instead (the pixel would fit), so it stays loops: the same op in another
// function must not become other GEMMs with other roundings.
// CHECK-LABEL: func.func @pinned_none
// CHECK:       linalg.generic
// CHECK-NOT:   call @pprt_cpu_gemm_f32
func.func @pinned_none(%a: memref<2x16x27xf32>, %w: memref<27x4xf32>, %c: memref<16x2x4xf32>) {
  // expected-remark @below {{contraction left to loops, not BLAS: operands lay out the merged GEMM dimensions in different orders}}
  linalg.generic {indexing_maps = [affine_map<(b, p, f, k) -> (b, p, k)>, affine_map<(b, p, f, k) -> (k, f)>, affine_map<(b, p, f, k) -> (p, b, f)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<2x16x27xf32>, memref<27x4xf32>) outs(%c : memref<16x2x4xf32>) attrs = {pp.gemm_batch = -1 : i64} {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %0, %acc : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// The weight gradient of a convolution with one output position (1 x 1):
// each image's column matrix is one row (k = 1) of 27, whose leading
// dimension BLAS requires to be at least 27 although no second row exists
// (its dimensions of size 1 have stride 1).
// CHECK-LABEL: func.func @im2col_weight_gradient_one_position
// CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : i64
// CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : i64
// CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : i64
// CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : i64
// CHECK-DAG:   %[[C27:.+]] = arith.constant 27 : i64
// CHECK:       call @pprt_cpu_gemm_f32(%[[C2]], %[[C4]], %[[C27]], %[[C1]], %[[C0]], %[[C0]], %{{.+}}, %[[C1]], %[[C4]], %{{.+}}, %[[C27]], %[[C27]], %{{.+}}, %[[C27]], %[[C0]], %{{.+}})
func.func @im2col_weight_gradient_one_position(%col: memref<2x1x1x3x3x3xf32>, %dy: memref<2x4x1x1xf32>, %dw: memref<4x3x3x3xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, f, oh, ow, c, kh, kw) -> (n, oh, ow, c, kh, kw)>, affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>, affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>], iterator_types = ["reduction", "parallel", "reduction", "reduction", "parallel", "parallel", "parallel"]}
      ins(%col, %dy : memref<2x1x1x3x3x3xf32>, memref<2x4x1x1xf32>) outs(%dw : memref<4x3x3x3xf32>) attrs = {pp.gemm_batch = 0 : i64} {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %b, %a : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
