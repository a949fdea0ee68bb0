// .npy inputs and outputs: seeded inputs saved with --save-inputs and read
// back with --inputs give the same results; results written with --outputs
// read back as the inputs of another function; files NumPy wrote (int32,
// version 2.0 header) are read. The error cases are in errors.mlir.

// RUN: rm -rf %t && mkdir -p %t
// RUN: pp-exec %s --entry=scale --seed=3 --save-inputs=%t/in --outputs=%t/out | FileCheck %s --check-prefix=SCALE
// RUN: pp-exec %s --entry=scale --inputs=%t/in/scale.arg0.npy,%t/in/scale.arg1.npy | FileCheck %s --check-prefix=SCALE
// An empty entry is seeded random: each argument has its own stream, so
// argument 0 is the same as without files.
// RUN: pp-exec %s --entry=scale --seed=3 --inputs=,%t/in/scale.arg1.npy | FileCheck %s --check-prefix=SCALE
// SCALE:      @scale result 0: tensor<2x3xf32>
// SCALE-NEXT:   sum = -0.647753537, sum of squares = 0.48370762
// SCALE-NEXT:   values = [-0.3865497, 0.20029348, 0.11297464, -0.42713332, -0.28356093, 0.1362223]
// SCALE-NEXT: @scale result 1: tensor<3xf64>
// SCALE-NEXT:   sum = 1.5, sum of squares = 2.25
// SCALE-NEXT:   values = [-0.5, 1, 1]

// RUN: pp-exec %s --entry=scale --seed=3 | FileCheck %s --check-prefix=EXACT
// EXACT:      @scale result 0: tensor<2x3xf32>
// EXACT-NEXT:   sum = -0.647753537, sum of squares = 0.48370762
// EXACT-NEXT:   values = [-0.3865497, 0.20029348, 0.11297464, -0.42713332, -0.28356093, 0.1362223]

// The results of @scale are the inputs of @negate.
// RUN: pp-exec %s --entry=negate --inputs=%t/out/scale.result0.npy,%t/out/scale.result1.npy | FileCheck %s --check-prefix=NEGATE
// NEGATE:      @negate result 0: tensor<2x3xf32>
// NEGATE-NEXT:   sum = 0.647753537, sum of squares = 0.48370762
// NEGATE-NEXT:   values = [0.3865497, -0.20029348, -0.11297464, 0.42713332, 0.28356093, -0.1362223]
// NEGATE-NEXT: @negate result 1: tensor<3xf64>
// NEGATE-NEXT:   sum = -1.5, sum of squares = 2.25
// NEGATE-NEXT:   values = [0.5, -1, -1]

// The header pp-exec writes: version 1.0, little-endian, C order, padded
// with spaces to a multiple of 64 bytes (here 128), ending in a newline.
// RUN: head -c 128 %t/out/scale.result0.npy | tail -c +11 | FileCheck %s --check-prefix=HEADER
// RUN: head -c 128 %t/out/scale.result1.npy | tail -c +11 | FileCheck %s --check-prefix=HEADER-F64
// HEADER: {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }{{ +}}{{$}}
// HEADER-F64: {'descr': '<f8', 'fortran_order': False, 'shape': (3,), }{{ +}}{{$}}

func.func @scale(%x: tensor<2x3xf32>, %y: tensor<3xf64>) -> (tensor<2x3xf32>, tensor<3xf64>) {
  %e = tensor.empty() : tensor<2x3xf32>
  %half = arith.constant dense<0.5> : tensor<2x3xf32>
  %r = linalg.mul ins(%x, %half : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  // y is replaced by constants so that the check does not depend on it.
  %c = arith.constant dense<[-0.5, 1.0, 1.0]> : tensor<3xf64>
  return %r, %c : tensor<2x3xf32>, tensor<3xf64>
}

func.func @negate(%x: tensor<2x3xf32>, %y: tensor<3xf64>) -> (tensor<2x3xf32>, tensor<3xf64>) {
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.negf ins(%x : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %f = tensor.empty() : tensor<3xf64>
  %s = linalg.negf ins(%y : tensor<3xf64>) outs(%f : tensor<3xf64>) -> tensor<3xf64>
  return %r, %s : tensor<2x3xf32>, tensor<3xf64>
}

// Inputs/i32-2x2.npy: np.save of np.array([[1, 2], [3, 4]], dtype=np.int32).
// RUN: pp-exec %s --entry=iadd --inputs=%S/Inputs/i32-2x2.npy,%S/Inputs/i32-2x2.npy | FileCheck %s --check-prefix=IADD
// IADD:      @iadd result 0: tensor<2x2xi32>
// IADD-NEXT:   sum = 20, sum of squares = 120
// IADD-NEXT:   values = [2, 4, 6, 8]
func.func @iadd(%a: tensor<2x2xi32>, %b: tensor<2x2xi32>) -> tensor<2x2xi32> {
  %e = tensor.empty() : tensor<2x2xi32>
  %r = linalg.add ins(%a, %b : tensor<2x2xi32>, tensor<2x2xi32>) outs(%e : tensor<2x2xi32>) -> tensor<2x2xi32>
  return %r : tensor<2x2xi32>
}

// Inputs/f64-3-v2.npy: [0.5, -1.25, 3.0] as float64, with a version 2.0
// header (4-byte header length).
// RUN: pp-exec %s --entry=dneg --inputs=%S/Inputs/f64-3-v2.npy | FileCheck %s --check-prefix=DNEG
// DNEG:      @dneg result 0: tensor<3xf64>
// DNEG-NEXT:   sum = -2.25, sum of squares = 10.8125
// DNEG-NEXT:   values = [-0.5, 1.25, -3]
func.func @dneg(%x: tensor<3xf64>) -> tensor<3xf64> {
  %f = tensor.empty() : tensor<3xf64>
  %s = linalg.negf ins(%x : tensor<3xf64>) outs(%f : tensor<3xf64>) -> tensor<3xf64>
  return %s : tensor<3xf64>
}
