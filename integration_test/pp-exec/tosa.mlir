// Functions in TOSA are converted to linalg first (tosa-to-linalg-named,
// tosa-to-linalg, tosa-to-arith, tosa-to-tensor, canonicalize), then run
// like any other.

// RUN: pp-exec %s --entry=tosa_layer --compare=linalg_layer --seed=2 | FileCheck %s
// CHECK: compare: results bitwise equal
// RUN: pp-exec %s --entry=tosa_constants | FileCheck %s --check-prefix=CONST
// CONST:      @tosa_constants result 0: tensor<1x2x1xf32>
// CONST-NEXT:   sum = 18, sum of squares = 180
// CONST-NEXT:   values = [6, 12]

// sum over j of relu((x w)[i, j])
func.func @tosa_layer(%x: tensor<1x2x3xf32>, %w: tensor<1x3x4xf32>) -> tensor<1x2x1xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.matmul %x, %w, %zp, %zp : (tensor<1x2x3xf32>, tensor<1x3x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4xf32>
  %r = tosa.clamp %y {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %s = tosa.reduce_sum %r {axis = 2 : i32} : (tensor<1x2x4xf32>) -> tensor<1x2x1xf32>
  return %s : tensor<1x2x1xf32>
}

func.func @linalg_layer(%x: tensor<1x2x3xf32>, %w: tensor<1x3x4xf32>) -> tensor<1x2x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %y = linalg.batch_matmul ins(%x, %w : tensor<1x2x3xf32>, tensor<1x3x4xf32>) outs(%init : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %r = linalg.map ins(%y : tensor<1x2x4xf32>) outs(%e : tensor<1x2x4xf32>)
    (%v: f32, %unused: f32) {
      %m = arith.maximumf %v, %zero : f32
      linalg.yield %m : f32
    }
  %se = tensor.empty() : tensor<1x2xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%se : tensor<1x2xf32>) -> tensor<1x2xf32>
  %s = linalg.reduce { arith.addf } ins(%r : tensor<1x2x4xf32>) outs(%sinit : tensor<1x2xf32>) dimensions = [2]
  %s3 = tensor.expand_shape %s [[0], [1, 2]] output_shape [1, 2, 1] : tensor<1x2xf32> into tensor<1x2x1xf32>
  return %s3 : tensor<1x2x1xf32>
}

// x = [[1, 2, 3], [4, 5, 6]], w = [[1, -1, 0, 0], [0, 1, -1, 0], [0, 0, 1, 1]]:
// x w = [[1, 1, 1, 3], [4, 1, 1, 6]], row sums after relu 6 and 12.
func.func @tosa_constants() -> tensor<1x2x1xf32> {
  %x = "tosa.const"() <{values = dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]> : tensor<1x2x3xf32>}> : () -> tensor<1x2x3xf32>
  %w = "tosa.const"() <{values = dense<[[[1.0, -1.0, 0.0, 0.0], [0.0, 1.0, -1.0, 0.0], [0.0, 0.0, 1.0, 1.0]]]> : tensor<1x3x4xf32>}> : () -> tensor<1x3x4xf32>
  %r = call @tosa_layer(%x, %w) : (tensor<1x2x3xf32>, tensor<1x3x4xf32>) -> tensor<1x2x1xf32>
  return %r : tensor<1x2x1xf32>
}
