// RUN: pp-opt %s -pp-gemm-to-runtime=target=gpu -verify-diagnostics -split-input-file | FileCheck %s

// A row-major matmul: batch 1, no transposes, leading dimensions = row
// strides, C += A B (accumulate = 1).
// CHECK-LABEL: func.func @matmul
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : i64
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : i64
// CHECK: %[[PA:.*]] = llvm.inttoptr
// CHECK: %[[PB:.*]] = llvm.inttoptr
// CHECK: %[[PC:.*]] = llvm.inttoptr
// CHECK: call @pprt_gpu_gemm_f32(%[[C1]], %[[C4]], %[[C16]], %[[C8]], %[[C0]], %[[C0]], %[[PA]], %[[C8]], %[[C0]], %[[PB]], %[[C16]], %[[C0]], %[[PC]], %[[C16]], %[[C0]], %[[C1]])
// CHECK-NOT: linalg.matmul
// CHECK: func.func private @pprt_gpu_gemm_f32(i64, i64, i64, i64, i64, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64, i64, i64)
func.func @matmul(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

// The weight gradient dW = X^T dY as pp-autodiff writes it (a generic
// reading X as (k, m)): A is passed transposed, its leading dimension the
// row stride of X. The pointer of a subview includes its offset.
// CHECK-LABEL: func.func @weight_gradient
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : i64
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %subview
// CHECK: %[[OFF:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: arith.addi %[[BASE]], %[[OFF]]
// CHECK: call @pprt_gpu_gemm_f64(%[[C1]], %[[C3]], %[[C2]], %[[C5]], %[[C1]], %[[C0]], %{{.*}}, %c4_i64, %[[C0]], %{{.*}}, %[[C2]], %[[C0]], %{{.*}}, %[[C2]], %[[C0]], %[[C1]])
#xt = affine_map<(m, n, k) -> (k, m)>
#dy = affine_map<(m, n, k) -> (k, n)>
#dw = affine_map<(m, n, k) -> (m, n)>
func.func @weight_gradient(%x: memref<6x4xf64>, %dy: memref<5x2xf64>, %dw: memref<3x2xf64>) {
  %xs = memref.subview %x[1, 1] [5, 3] [1, 1] : memref<6x4xf64> to memref<5x3xf64, strided<[4, 1], offset: 5>>
  linalg.generic {indexing_maps = [#xt, #dy, #dw], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%xs, %dy : memref<5x3xf64, strided<[4, 1], offset: 5>>, memref<5x2xf64>) outs(%dw : memref<3x2xf64>) {
  ^bb0(%p: f64, %q: f64, %acc: f64):
    %0 = arith.mulf %p, %q : f64
    %1 = arith.addf %acc, %0 : f64
    linalg.yield %1 : f64
  }
  return
}

// -----

// batch_matmul: batch strides are the operands' outer strides.
// CHECK-LABEL: func.func @batched
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : i64
// CHECK-DAG: %[[C12:.*]] = arith.constant 12 : i64
// CHECK-DAG: %[[C15:.*]] = arith.constant 15 : i64
// CHECK-DAG: %[[C20:.*]] = arith.constant 20 : i64
// CHECK: call @pprt_gpu_gemm_f32(%[[C3]], %[[C4]], %[[C5]], %[[C3]], %[[C0]], %[[C0]], %{{.*}}, %[[C3]], %[[C12]], %{{.*}}, %[[C5]], %[[C15]], %{{.*}}, %[[C5]], %[[C20]], %[[C1]])
func.func @batched(%a: memref<3x4x3xf32>, %b: memref<3x3x5xf32>, %c: memref<3x4x5xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<3x4x3xf32>, memref<3x3x5xf32>) outs(%c : memref<3x4x5xf32>)
  return
}

// -----

// What cuBLAS cannot take stays a linalg op, with a remark.
func.func @left_alone(%a: memref<4x8xf16>, %b: memref<8x16xf16>, %c: memref<4x16xf16>,
                      %d: memref<4x8xf32, strided<[16, 2]>>, %e: memref<8x16xf32>, %f: memref<4x16xf32>) {
  // expected-remark @below {{contraction left to a kernel, not cuBLAS: element type is neither f32 nor f64}}
  linalg.matmul ins(%a, %b : memref<4x8xf16>, memref<8x16xf16>) outs(%c : memref<4x16xf16>)
  // expected-remark @below {{contraction left to a kernel, not cuBLAS: an operand's strides are dynamic, its merged GEMM dimensions are not contiguous, or neither GEMM dimension has unit stride}}
  linalg.matmul ins(%d, %e : memref<4x8xf32, strided<[16, 2]>>, memref<8x16xf32>) outs(%f : memref<4x16xf32>)
  return
}
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-2: linalg.matmul
// CHECK-NOT: call

// -----

// The input gradient dX = dY W^T as pp-autodiff writes it: W is the first
// input but indexes the output's columns, so the inputs swap roles
// (C = dY op(W), W transposed, leading dimension 8).
// CHECK-LABEL: func.func @input_gradient
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : i64
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %arg1
// CHECK: %[[PDY:.*]] = llvm.inttoptr
// CHECK: %[[PW:.*]] = llvm.inttoptr
// CHECK: %[[PDX:.*]] = llvm.inttoptr
// CHECK: call @pprt_gpu_gemm_f32(%[[C1]], %[[C2]], %[[C4]], %[[C8]], %[[C0]], %[[C1]], %[[PDY]], %[[C8]], %[[C0]], %[[PW]], %[[C8]], %[[C0]], %[[PDX]], %[[C4]], %[[C0]], %[[C1]])
#w = affine_map<(d0, d1, d2) -> (d2, d1)>
#g = affine_map<(d0, d1, d2) -> (d0, d1)>
#x = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @input_gradient(%w: memref<4x8xf32>, %dy: memref<2x8xf32>, %dx: memref<2x4xf32>) {
  linalg.generic {indexing_maps = [#w, #g, #x], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%w, %dy : memref<4x8xf32>, memref<2x8xf32>) outs(%dx : memref<2x4xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %0 = arith.mulf %q, %p : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Several loop dimensions merge into one GEMM dimension when every operand
// holding them lays them out contiguously in the same order: here the
// batch of images and the pixels (2 x 16) are m, as after im2col.
// CHECK-LABEL: func.func @merged
// CHECK: call @pprt_gpu_gemm_f32(%c1_i64, %c32_i64, %c4_i64, %c27_i64, %c0_i64, %c0_i64, %{{.*}}, %c27_i64, %c0_i64, %{{.*}}, %c4_i64, %c0_i64, %{{.*}}, %c4_i64, %c0_i64, %c1_i64)
#cols = affine_map<(b, p, f, k) -> (b, p, k)>
#filt = affine_map<(b, p, f, k) -> (k, f)>
#outp = affine_map<(b, p, f, k) -> (b, p, f)>
func.func @merged(%a: memref<2x16x27xf32>, %w: memref<27x4xf32>, %c: memref<2x16x4xf32>) {
  linalg.generic {indexing_maps = [#cols, #filt, #outp], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<2x16x27xf32>, memref<27x4xf32>) outs(%c : memref<2x16x4xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %0, %acc : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// The same, but the output holds the merged dimensions in the other order
// (pixels outer, images inner): the rows of A and C do not match as one
// GEMM, but with the pixel as the batch they do: 16 GEMMs of the 2 images
// (A's rows 432 apart, its batch stride 27), the filter the same for each
// (batch stride 0), C's batch stride 8.
// CHECK-LABEL: func.func @merged_transposed
// CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : i64
// CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : i64
// CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : i64
// CHECK-DAG:   %[[C8:.+]] = arith.constant 8 : i64
// CHECK-DAG:   %[[C16:.+]] = arith.constant 16 : i64
// CHECK-DAG:   %[[C27:.+]] = arith.constant 27 : i64
// CHECK-DAG:   %[[C432:.+]] = arith.constant 432 : i64
// CHECK:       call @pprt_gpu_gemm_f32(%[[C16]], %[[C2]], %[[C4]], %[[C27]], %[[C0]], %[[C0]], %{{.+}}, %[[C432]], %[[C27]], %{{.+}}, %[[C4]], %[[C0]], %{{.+}}, %[[C4]], %[[C8]], %{{.+}})
#cols = affine_map<(b, p, f, k) -> (b, p, k)>
#filt = affine_map<(b, p, f, k) -> (k, f)>
#outt = affine_map<(b, p, f, k) -> (p, b, f)>
func.func @merged_transposed(%a: memref<2x16x27xf32>, %w: memref<27x4xf32>, %c: memref<16x2x4xf32>) {
  linalg.generic {indexing_maps = [#cols, #filt, #outt], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<2x16x27xf32>, memref<27x4xf32>) outs(%c : memref<16x2x4xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %0, %acc : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Three merged row dimensions that A and C lay out in opposite orders: no
// batch among them leaves the other two in the same order, so it stays a
// kernel.
#cols3 = affine_map<(b, p, q, f, k) -> (b, p, q, k)>
#filt3 = affine_map<(b, p, q, f, k) -> (k, f)>
#outt3 = affine_map<(b, p, q, f, k) -> (q, p, b, f)>
func.func @merged_mismatch(%a: memref<2x4x3x27xf32>, %w: memref<27x4xf32>, %c: memref<3x4x2x4xf32>) {
  // expected-remark @below {{contraction left to a kernel, not cuBLAS: operands lay out the merged GEMM dimensions in different orders}}
  linalg.generic {indexing_maps = [#cols3, #filt3, #outt3], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<2x4x3x27xf32>, memref<27x4xf32>) outs(%c : memref<3x4x2x4xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %0, %acc : f32
    linalg.yield %1 : f32
  }
  return
}
