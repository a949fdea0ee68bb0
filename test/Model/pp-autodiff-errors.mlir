// Every error of pp-autodiff{function=f} that depends on the input: each
// at the offending op (or function), saying what to do.
// RUN: pp-opt %s -split-input-file -verify-diagnostics -pp-autodiff=function=f

// expected-error @below {{'@f' must return one scalar loss (a float, tensor<f32> or a one-element float tensor), but returns (tensor<4xf32>); append a loss first (pp-append-loss), or take the gradients of the results as arguments (cotangents=true)}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// expected-error @below {{'@f' must return one scalar loss (a float, tensor<f32> or a one-element float tensor), but returns (tensor<f32>, tensor<f32>)}}
func.func @f(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  return %x, %x : tensor<f32>, tensor<f32>
}

// -----

// expected-error @below {{'@f' is a declaration; it needs a body}}
func.func private @f(tensor<4xf32>) -> tensor<f32>

// -----

// expected-error @below {{cannot create '@f_grad': a symbol of that name already exists}}
func.func @f(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
func.func @f_grad(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}

// -----

// expected-error @below {{'@f' has several blocks; control flow is not supported (one block of ops on tensors)}}
func.func @f(%x: tensor<f32>) -> tensor<f32> {
  cf.br ^next
^next:
  return %x : tensor<f32>
}

// -----

// expected-error @below {{argument 0 of '@f' has a dynamic shape (tensor<?xf32>); dynamic shapes are not supported, give the model static shapes}}
func.func @f(%x: tensor<?xf32>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %e = tensor.extract %x[%c0] : tensor<?xf32>
  %r = tensor.from_elements %e : tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  // expected-error @below {{cannot differentiate 'tensor.cast': dynamic shapes are not supported (tensor<?xf32>); give the model static shapes}}
  %d = tensor.cast %x : tensor<4xf32> to tensor<?xf32>
  %e = tensor.extract %d[%c0] : tensor<?xf32>
  %r = tensor.from_elements %e : tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func private @rtclock() -> f64
func.func private @print(f64)

// Timers and prints are refused even where they do not touch the loss.
func.func @f(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @below {{cannot differentiate call to @rtclock: calls are not differentiated; inline private helper functions first (pp-prepare-model), and remove instrumentation such as timers and prints (pp-strip-instrumentation)}}
  %t = func.call @rtclock() : () -> f64
  // expected-error @below {{cannot differentiate call to @print}}
  func.call @print(%t) : (f64) -> ()
  return %x : tensor<f32>
}

// -----

func.func @f(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @below {{cannot differentiate 'memref.alloc': it has side effects; remove it (pp-strip-instrumentation for timers and prints) or move it out of the loss function}}
  %m = memref.alloc() : memref<4xf32>
  return %x : tensor<f32>
}

// -----

func.func @f(%table: tensor<8x4xf32>, %idx: tensor<2x1xindex>) -> tensor<f32> {
  // expected-error @below {{cannot differentiate 'tensor.gather': its result depends on the differentiated arguments and reaches the loss, and pp-autodiff has no rule for it; supported: linalg.generic and named linalg ops, elementwise arith/math, tensor.expand_shape/collapse_shape/reshape/cast/extract_slice/insert_slice/pad/concat/extract/insert/from_elements, linalg.fill (run pp-prepare-model first); rewrite the model with these ops or add a rule for it to pp-autodiff}}
  %g = tensor.gather %table[%idx] gather_dims([0]) : (tensor<8x4xf32>, tensor<2x1xindex>) -> tensor<2x4xf32>
  %c0 = arith.constant 0 : index
  %e = tensor.extract %g[%c0, %c0] : tensor<2x4xf32>
  %r = tensor.from_elements %e : tensor<f32>
  return %r : tensor<f32>
}

// -----

// Ops that do not depend on the differentiated arguments, or do not reach
// the loss, need no rule; the same op on the path to the loss does.
func.func @f(%x: tensor<f32>, %y: f32) -> tensor<f32> {
  %c = arith.constant 2.0 : f32
  %ok = arith.remf %y, %c : f32
  %e = tensor.extract %x[] : tensor<f32>
  %unused = arith.remf %e, %c : f32
  // expected-error @below {{cannot differentiate 'arith.remf': its result depends on the differentiated arguments and reaches the loss}}
  %bad = arith.remf %e, %ok : f32
  %r = tensor.from_elements %bad : tensor<f32>
  return %r : tensor<f32>
}

// -----

#id = affine_map<(i) -> (i)>
#none = affine_map<(i) -> ()>
func.func @f(%x: tensor<4xf32>) -> tensor<f32> {
  %zero = arith.constant dense<0.0> : tensor<f32>
  %r = linalg.generic {indexing_maps = [#id, #none], iterator_types = ["reduction"]} ins(%x : tensor<4xf32>) outs(%zero : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %one = arith.constant 1.0 : f32
    // expected-error @below {{cannot differentiate 'math.atan2' in the body of 'linalg.generic'; supported scalar ops: arith.addf, subf, mulf, divf, negf, maximumf, maxnumf, minimumf, minnumf, select, cmpf, extf, truncf, constant; math.exp, exp2, expm1, log, log2, log10, log1p, tanh, sqrt, rsqrt, powf, fpowi, erf, erfc, sin, cos, tan, atan, absf, fma, cbrt, floor, ceil, round, trunc}}
    %t = math.atan2 %a, %one : f32
    %s = arith.addf %acc, %t : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// Inputs read through a window (sums of loop dimensions times constants,
// as in convolutions) are differentiated; a nearest-neighbour upsampling,
// y[i] = x[i floordiv 2], is not: its map uses floordiv.
func.func @f(%x: tensor<3xf32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<6xf32>
  // expected-error @below {{cannot differentiate 'linalg.generic' with respect to input #0: its indexing map (d0) -> (d0 floordiv 2) is not supported: result #0 (d0 floordiv 2) uses 'floordiv'; supported: every result a sum of loop dimensions times positive constants plus a non-negative constant, no loop dimension used twice in the map (projected permutations, and the sliding windows of convolutions and pooling such as d1 * 2 + d4 * 3 + 1)}}
  %up = linalg.generic {indexing_maps = [affine_map<(i) -> (i floordiv 2)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<3xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  } -> tensor<6xf32>
  %zero = arith.constant dense<0.0> : tensor<f32>
  %r = linalg.reduce { arith.addf } ins(%up : tensor<6xf32>) outs(%zero : tensor<f32>) dimensions = [0]
  return %r : tensor<f32>
}

// -----

// A reversal (a negative coefficient) and a diagonal (a loop dimension used
// twice) are refused too; both are reported in one run.
func.func @f(%x: tensor<4xf32>, %m: tensor<4x4xf32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @below {{cannot differentiate 'linalg.generic' with respect to input #0: its indexing map (d0) -> (-d0 + 3) is not supported: result #0 (-d0 + 3) has a negative coefficient; supported: every result}}
  %rev = linalg.generic {indexing_maps = [affine_map<(i) -> (3 - i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  // expected-error @below {{cannot differentiate 'linalg.generic' with respect to input #1: its indexing map (d0) -> (d0, d0) is not supported: result #1 (d0) uses loop dimension d0, which another part of the map uses too; supported: every result}}
  %diag = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i, i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%rev, %m : tensor<4xf32>, tensor<4x4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<4xf32>
  %zero = arith.constant dense<0.0> : tensor<f32>
  %r = linalg.reduce { arith.addf } ins(%diag : tensor<4xf32>) outs(%zero : tensor<f32>) dimensions = [0]
  return %r : tensor<f32>
}

// -----

#id = affine_map<(i) -> (i)>
#none = affine_map<(i) -> ()>
func.func @f(%x: tensor<4xf32>) -> tensor<f32> {
  %one = arith.constant dense<1.0> : tensor<f32>
  // expected-error @below {{cannot differentiate 'linalg.generic': output #0 is a reduction whose accumulator is not combined by one arith.addf/arith.subf chain (a sum) or one arith.maximumf/maxnumf/minimumf/minnumf (a max/min); other reductions (products, arg-max, ...) are not supported}}
  %r = linalg.generic {indexing_maps = [#id, #none], iterator_types = ["reduction"]} ins(%x : tensor<4xf32>) outs(%one : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %p = arith.mulf %acc, %a : f32
    linalg.yield %p : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

#id = affine_map<(i) -> (i)>
#none = affine_map<(i) -> ()>
func.func @f(%x: tensor<4xf32>) -> tensor<f32> {
  %zero = arith.constant dense<0.0> : tensor<f32>
  // expected-error @below {{cannot differentiate 'linalg.generic': output #0 has reduction iterators but does not read its accumulator}}
  %r = linalg.generic {indexing_maps = [#id, #none], iterator_types = ["reduction"]} ins(%x : tensor<4xf32>) outs(%zero : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    linalg.yield %a : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func @f(%x: tensor<4xf32>, %init: tensor<f32>) -> tensor<f32> {
  // expected-error @below {{cannot differentiate 'linalg.reduce' with respect to the initial value of its max/min reduction (output #0); start it from a constant}}
  %r = linalg.reduce { arith.maximumf } ins(%x : tensor<4xf32>) outs(%init : tensor<f32>) dimensions = [0]
  return %r : tensor<f32>
}

// -----

func.func @f(%x: tensor<2xf32>, %v: tensor<f32>) -> tensor<f32> {
  %pv = tensor.extract %v[] : tensor<f32>
  // expected-error @below {{cannot differentiate 'tensor.pad' with respect to its padding value; pad with a constant}}
  %p = tensor.pad %x low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %pv : f32
  } : tensor<2xf32> to tensor<4xf32>
  %c0 = arith.constant 0 : index
  %e = tensor.extract %p[%c0] : tensor<4xf32>
  %r = tensor.from_elements %e : tensor<f32>
  return %r : tensor<f32>
}

// -----

// Bits of a float reaching the loss as an integer: no rule.
func.func @f(%x: tensor<f32>) -> tensor<f32> {
  %e = tensor.extract %x[] : tensor<f32>
  // expected-error @below {{cannot differentiate 'arith.bitcast': it turns values that depend on the differentiated arguments into non-float values that reach the loss, and pp-autodiff has no rule for it}}
  %i = arith.bitcast %e : f32 to i32
  %f = arith.sitofp %i : i32 to f32
  %r = tensor.from_elements %f : tensor<f32>
  return %r : tensor<f32>
}

// -----

// Comparisons and conversions to integers have a zero derivative.
func.func @f(%x: tensor<f32>) -> tensor<f32> {
  %e = tensor.extract %x[] : tensor<f32>
  %i = arith.fptosi %e : f32 to i32
  %f = arith.sitofp %i : i32 to f32
  %s = arith.addf %f, %e : f32
  %r = tensor.from_elements %s : tensor<f32>
  return %r : tensor<f32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#none = affine_map<(i) -> ()>
func.func @f(%x: tensor<2x3xf32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<2xf32>
  // expected-error @below {{cannot differentiate 'linalg.generic': output #0 has the indexing map (d0, d1) -> (d0), which is not a permutation of the iteration space, but no dimension is a reduction; mark the missing dimensions as reductions}}
  %last = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%e : tensor<2xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2xf32>
  %zero = arith.constant dense<0.0> : tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, #none], iterator_types = ["reduction"]} ins(%last : tensor<2xf32>) outs(%zero : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
