// RUN: pp-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics -pp-check-differentiable -o /dev/null

// Every unsupported op is reported at its location, with what to do.

func.func private @rtclock() -> f64
func.func private @record_timing(!llvm.ptr, f64)

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{cannot differentiate 'func.call' to @rtclock: it has side effects (an external function without tensor results, such as a timer or a print); run pp-strip-instrumentation first}}
  %t0 = call @rtclock() : () -> f64
  // expected-error @below {{cannot differentiate 'func.call' to @rtclock: it has side effects}}
  %t1 = call @rtclock() : () -> f64
  %d = arith.subf %t1, %t0 : f64
  // expected-error @below {{cannot differentiate 'llvm.mlir.addressof': LLVM dialect ops are not differentiated; if it only feeds instrumentation (timers, prints), run pp-strip-instrumentation first}}
  %name = llvm.mlir.addressof @name : !llvm.ptr
  // expected-error @below {{cannot differentiate 'func.call' to @record_timing: it has side effects}}
  call @record_timing(%name, %d) : (!llvm.ptr, f64) -> ()
  return %x : tensor<4xf32>
}

llvm.mlir.global private constant @name("f\00") {addr_space = 0 : i32}

// -----

func.func private @external(tensor<4xf32>) -> tensor<4xf32>

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{cannot differentiate 'func.call' to @external: it is an external declaration without a body; define @external in the module as a private function}}
  %y = call @external(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error @below {{cannot differentiate 'func.call' to public @g: only calls to private functions are differentiated through; make @g private or inline it (--inline)}}
  %z = call @g(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return %z : tensor<4xf32>
}

func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// A nearest-neighbour upsampling: the map uses floordiv.
func.func @f(%x: tensor<3xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6xf32>
  // expected-error @below {{cannot differentiate 'linalg.generic' yet: the indexing map of input #0, affine_map<(d0) -> (d0 floordiv 2)>, is not supported: result #0 (d0 floordiv 2) uses 'floordiv'; supported: every result a sum of loop dimensions times positive constants plus a non-negative constant, no loop dimension used twice in the map (projected permutations, and the sliding windows of convolutions and pooling such as d1 * 2 + d4 * 3 + 1); rewrite the op or add a rule to pp-autodiff}}
  %up = linalg.generic {indexing_maps = [affine_map<(i) -> (i floordiv 2)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<3xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  } -> tensor<6xf32>
  return %up : tensor<6xf32>
}

// -----

func.func @f(%x: tensor<4xf32>, %m: memref<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{cannot differentiate 'linalg.copy' on buffers: pp-autodiff works on tensors; run it before bufferization}}
  linalg.copy ins(%m : memref<4xf32>) outs(%m : memref<4xf32>)
  // expected-error @below {{cannot differentiate 'linalg.softmax' on buffers: pp-autodiff works on tensors; run it before bufferization}}
  linalg.softmax dimension(0) ins(%m : memref<4xf32>) outs(%m : memref<4xf32>)
  return %x : tensor<4xf32>
}

// -----

// A gather from a tensor above is differentiable; an op of another dialect
// in the body is not.
func.func @f(%x: tensor<4xf32>, %table: tensor<8xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %v = tensor.extract %table[%i] : tensor<8xf32>
    // expected-error @below {{cannot differentiate 'tensor.from_elements' in the body of 'linalg.generic': a linalg body may hold only arith and math ops, linalg.index, tensor.extract of a tensor from above (a gather) and linalg.yield}}
    %t = tensor.from_elements %v : tensor<1xf32>
    %c0 = arith.constant 0 : index
    // expected-error @below {{cannot differentiate 'tensor.extract' in the body of 'linalg.generic'}}
    %w = tensor.extract %t[%c0] : tensor<1xf32>
    %s = arith.addf %in, %w : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  // expected-error @below {{cannot differentiate 'tensor.dim' yet: the supported tensor ops are empty, reshape, expand_shape, collapse_shape, extract_slice, insert_slice, pad, concat, cast, extract, insert and from_elements; rewrite it with those or add a rule to pp-autodiff}}
  %n = tensor.dim %x, %c0 : tensor<4xf32>
  return %x : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<1x4x2x1xf32>
  // expected-error @below {{cannot differentiate 'linalg.pack' yet: it is not a structured linalg op (no indexing maps); add a rule to pp-autodiff or rewrite it as linalg.generic}}
  %p = linalg.pack %x inner_dims_pos = [0, 1] inner_tiles = [2, 1] into %e : tensor<2x4xf32> -> tensor<1x4x2x1xf32>
  return %x : tensor<2x4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{cannot differentiate 'tosa.exp': TOSA is differentiated after lowering; run pp-prepare-model (or tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith, tosa-to-tensor) first}}
  %y = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  // expected-error @below {{cannot differentiate 'scf.if': control flow is not supported; the model must be one block of ops on tensors (unroll loops, turn branches into arith.select)}}
  %y = "scf.if"(%c) ({
    "scf.yield"(%x) : (tensor<4xf32>) -> ()
  }, {
    "scf.yield"(%x) : (tensor<4xf32>) -> ()
  }) : (i1) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{cannot differentiate 'test.random': it is outside the supported set (linalg on tensors, tensor reshapes, slices, pad and concat, arith, math, calls to private functions); see docs/ModelConventions.md}}
  %y = "test.random"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Private helpers are checked where they are defined.

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %z = call @helper(%y) : (tensor<4xf32>) -> tensor<4xf32>
  return %z : tensor<4xf32>
}

func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{cannot differentiate 'test.print'}}
  "test.print"(%x) : (tensor<4xf32>) -> ()
  return %x : tensor<4xf32>
}
