// RUN: pp-opt %s --pp-round-to-bf16 --split-input-file | FileCheck %s
// RUN: pp-opt %s --pp-round-to-bf16=exclude=kept --split-input-file | FileCheck %s --check-prefix=EXCLUDE
// RUN: pp-opt %s --pp-round-to-bf16 --split-input-file | FileCheck %s --check-prefix=BODY

// The rounding: to bf16 (round to nearest even) and back.
// BODY-LABEL: func.func @matmul(
// BODY: (%[[IN:.*]]: f32, %{{.*}}: f32) {
// BODY-NEXT: %[[H:.*]] = arith.truncf %[[IN]] : f32 to bf16
// BODY-NEXT: %[[F:.*]] = arith.extf %[[H]] : bf16 to f32
// BODY-NEXT: linalg.yield %[[F]] : f32

// Both inputs of a matmul are rounded to bf16 and back; the accumulator
// (its init) and everything else stay f32.
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x16xf32>
// CHECK-DAG: %[[XR:.*]] = linalg.map ins(%[[X]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK-DAG: %[[WR:.*]] = linalg.map ins(%[[W]] : tensor<8x16xf32>) outs(%{{.*}} : tensor<8x16xf32>)
// CHECK: %[[Y:.*]] = linalg.matmul ins(%[[XR]], %[[WR]] : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[Z:.*]] : tensor<4x16xf32>)
// CHECK: linalg.map { math.tanh } ins(%[[Y]]
func.func @matmul(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %t = linalg.map { math.tanh } ins(%y : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>)
  return %t : tensor<4x16xf32>
}

// -----

// A weight two matmuls read (forward and a gradient GEMM) is rounded once;
// a generic contraction (a transposed-operand GEMM) is rounded too.
// CHECK-LABEL: func.func @shared(
// CHECK-COUNT-3: linalg.map ins(
// CHECK-NOT: linalg.map ins(
// CHECK: linalg.matmul
// CHECK: linalg.generic
// CHECK: return
func.func @shared(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %d: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %dx = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%d, %w : tensor<4x16xf32>, tensor<8x16xf32>) outs(%z2 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %y, %dx : tensor<4x16xf32>, tensor<4x8xf32>
}

// -----

// A sum of squares (one value with itself) is a reduction: it stays f32.
// CHECK-LABEL: func.func @norm(
// CHECK-NOT: arith.truncf
// CHECK: return
func.func @norm(%x: tensor<16xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %n = linalg.dot ins(%x, %x : tensor<16xf32>, tensor<16xf32>) outs(%z : tensor<f32>) -> tensor<f32>
  return %n : tensor<f32>
}

// -----

// exclude= leaves a function in f32 (the reference of --check's f32 loss).
// EXCLUDE-LABEL: func.func @kept(
// EXCLUDE-NOT: arith.truncf
// EXCLUDE: return
// EXCLUDE-LABEL: func.func @rounded(
// EXCLUDE: arith.truncf
func.func @kept(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %z: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %y = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
func.func @rounded(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %z: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %y = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// Pooling matches linalg's convolution maps but multiplies nothing: a max
// over a window stays f32 (and its window operand is not touched).
// CHECK-LABEL: func.func @pool(
// CHECK-NOT: arith.truncf
// CHECK: return
func.func @pool(%x: tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32> {
  %ninf = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %z = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %w = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x8x8x4xf32>, tensor<2x2xf32>) outs(%z : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %p : tensor<1x4x4x4xf32>
}
