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
