// pp-exec runs a function on tensors and prints, per result, the type, a
// checksum (sum, sum of squares) and the leading values (shortest decimal
// form that reads back to the same value).

// RUN: pp-exec %s --entry=constants | FileCheck %s --check-prefix=CONST
// CONST:      @constants result 0: tensor<2x3xf32>
// CONST-NEXT:   sum = 24, sum of squares = 113.5
// CONST-NEXT:   values = [1.5, 2.5, 3.5, 4.5, 5.5, 6.5]
// CONST-NEXT: @constants result 1: tensor<f64>
// CONST-NEXT:   sum = 0.1, sum of squares = 0.01
// CONST-NEXT:   values = [0.1]
// CONST-NEXT: @constants result 2: tensor<3xi64>
// CONST-NEXT:   sum = 42, sum of squares = 1274
// CONST-NEXT:   values = [7, 0, 35]
// CONST-NEXT: @constants result 3: tensor<2xi32>
// CONST-NEXT:   sum = -1, sum of squares = 5
// CONST-NEXT:   values = [1, -2]
// CONST-NOT: result

func.func @add(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.add ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>)
                  outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// Calls between functions of the module, constants of every element type.
func.func @constants() -> (tensor<2x3xf32>, tensor<f64>, tensor<3xi64>, tensor<2xi32>) {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = arith.constant dense<0.5> : tensor<2x3xf32>
  %r = call @add(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %d = arith.constant dense<0.1> : tensor<f64>
  %i = arith.constant dense<[7, 0, 35]> : tensor<3xi64>
  %j = arith.constant dense<[1, -2]> : tensor<2xi32>
  return %r, %d, %i, %j : tensor<2x3xf32>, tensor<f64>, tensor<3xi64>, tensor<2xi32>
}

// Seeded inputs are uniform in [-1, 1) and the same on every run and
// machine (splitmix64; docs/Execution.md); a different seed, other values.
// RUN: pp-exec %s --entry=add --seed=7 | FileCheck %s --check-prefix=SEED7
// RUN: pp-exec %s --entry=add --seed=7 -O0 --no-interchange | FileCheck %s --check-prefix=SEED7
// RUN: pp-exec %s --entry=add --seed=8 | FileCheck %s --check-prefix=SEED8
// SEED7:      @add result 0: tensor<2x3xf32>
// SEED7-NEXT:   sum = -1.04105914, sum of squares = 2.71630075
// SEED7-NEXT:   values = [-0.9093332, -0.11710966, 1.0176107, -0.61066985, 0.22418976, -0.6457468]
// SEED8:      @add result 0: tensor<2x3xf32>
// SEED8-NEXT:   sum = -0.224477172, sum of squares = 0.816825139

// A reduction (row sums) and the first-values limit.
// RUN: pp-exec %s --entry=row_sums | FileCheck %s --check-prefix=ROWS
// RUN: pp-exec %s --entry=row_sums --print-values=2 | FileCheck %s --check-prefix=ROWS2
// ROWS:      @row_sums result 0: tensor<4xf32>
// ROWS-NEXT:   sum = 78, sum of squares = 1926
// ROWS-NEXT:   values = [6, 15, 24, 33]
// ROWS2:        values (first 2 of 4) = [6, 15]
func.func @row_sums() -> tensor<4xf32> {
  %m = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]> : tensor<4x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.reduce { arith.addf } ins(%m : tensor<4x3xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
  return %s : tensor<4xf32>
}

// Elementwise math through linalg.generic (exp lowers to an LLVM intrinsic,
// tanh to libm), linalg.softmax (decomposed), matmul (loops interchanged
// for locality), integer arithmetic.
// RUN: pp-exec %s --entry=elementwise | FileCheck %s --check-prefix=ELEM
// ELEM:      @elementwise result 0: tensor<4xf32>
// ELEM-NEXT:   sum = 10, sum of squares = 286
// ELEM-NEXT:   values = [1, -10, 8, 11]
// ELEM-NEXT: @elementwise result 1: tensor<2x4xf32>
// ELEM-NEXT:   sum = 2, sum of squares = 0.5
// ELEM-NEXT:   values = [0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25]
// ELEM-NEXT: @elementwise result 2: tensor<2x2xf32>
// ELEM-NEXT:   sum = 134
// ELEM-NEXT:   values = [19, 22, 43, 50]
// ELEM-NEXT: @elementwise result 3: tensor<3xi32>
// ELEM-NEXT:   sum = 14
// ELEM-NEXT:   values = [2, 4, 8]
#id = affine_map<(d0) -> (d0)>
func.func @elementwise() -> (tensor<4xf32>, tensor<2x4xf32>, tensor<2x2xf32>, tensor<3xi32>) {
  // round(exp(x)) + round(10 tanh(x)) at x = 0, -3, ln 2, ln 3:
  // (1 + 0), (0 - 10), (2 + 6), (3 + 8).
  %x = arith.constant dense<[0.0, -3.0, 0.6931471805599453, 1.0986122886681098]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %ten = arith.constant 10.0 : f32
    %ex = math.exp %in : f32
    %a = math.roundeven %ex : f32
    %t = math.tanh %in : f32
    %t10 = arith.mulf %t, %ten : f32
    %b = math.roundeven %t10 : f32
    %w = arith.addf %a, %b : f32
    linalg.yield %w : f32
  } -> tensor<4xf32>
  %logits = arith.constant dense<3.0> : tensor<2x4xf32>
  %se = tensor.empty() : tensor<2x4xf32>
  %sm = linalg.softmax dimension(1) ins(%logits : tensor<2x4xf32>) outs(%se : tensor<2x4xf32>) -> tensor<2x4xf32>
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = arith.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %me = tensor.empty() : tensor<2x2xf32>
  %mz = linalg.fill ins(%zero : f32) outs(%me : tensor<2x2xf32>) -> tensor<2x2xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%mz : tensor<2x2xf32>) -> tensor<2x2xf32>
  %i = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
  %ie = tensor.empty() : tensor<3xi32>
  %shifted = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%i : tensor<3xi32>) outs(%ie : tensor<3xi32>) {
  ^bb0(%in: i32, %out: i32):
    %one = arith.constant 1 : i32
    %s = arith.shli %one, %in : i32
    linalg.yield %s : i32
  } -> tensor<3xi32>
  return %r, %sm, %mm, %shifted : tensor<4xf32>, tensor<2x4xf32>, tensor<2x2xf32>, tensor<3xi32>
}

// A function that updates an argument in place works on a copy: the
// caller's buffers are read-only. @set_last runs first on the inputs; had it
// written 102 into them, @identity would return 102 too.
// RUN: not pp-exec %s --entry=set_last --compare=identity | FileCheck %s --check-prefix=INPLACE
// INPLACE:      result 0 (tensor<3xf32>): 1 of 3 elements differ, max abs difference {{.*}} at [2] (102 vs {{.*}})
func.func @set_last(%t: tensor<3xf32>) -> tensor<3xf32> {
  %c2 = arith.constant 2 : index
  %v = arith.constant 102.0 : f32
  %r = tensor.insert %v into %t[%c2] : tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @identity(%t: tensor<3xf32>) -> tensor<3xf32> {
  return %t : tensor<3xf32>
}
