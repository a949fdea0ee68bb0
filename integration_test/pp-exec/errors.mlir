// Every error pp-exec reports: a diagnostic (at the function or op when
// there is one) and exit status 1.

// RUN: rm -rf %t && mkdir -p %t
// RUN: pp-exec %s --entry=add --save-inputs=%t > /dev/null
// RUN: pp-exec %s --entry=add_f64 --save-inputs=%t > /dev/null

// Options.
// RUN: not pp-exec %s 2>&1 | FileCheck %s --check-prefix=NO-ENTRY
// NO-ENTRY: pp-exec: error: --entry=NAME is required
// RUN: not pp-exec %s --entry=add --gradient=add 2>&1 | FileCheck %s --check-prefix=GRAD-ALONE
// GRAD-ALONE: pp-exec: error: --gradient is only used with --check-gradients
// RUN: not pp-exec %s --entry=add --check-gradients 2>&1 | FileCheck %s --check-prefix=GRAD-MISSING
// GRAD-MISSING: pp-exec: error: --check-gradients needs --gradient=G
// RUN: not pp-exec %s --entry=add --check-gradients --gradient=add --compare=add 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: pp-exec: error: --check-gradients and --compare cannot be combined
// RUN: not pp-exec %s --entry=add --wrt=0 2>&1 | FileCheck %s --check-prefix=WRT-ALONE
// WRT-ALONE: pp-exec: error: --wrt is only used with --check-gradients
// RUN: not pp-exec %s --entry=loss --check-gradients --gradient=loss_grad --wrt=x 2>&1 | FileCheck %s --check-prefix=WRT-BAD
// WRT-BAD: pp-exec: error: --wrt: 'x' is not an argument index
// RUN: not pp-exec %s/missing.mlir --entry=add 2>&1 | FileCheck %s --check-prefix=NO-FILE
// NO-FILE: pp-exec: error: cannot open input file '{{.*}}missing.mlir'

// Unknown functions: the functions the module defines are listed.
// RUN: not pp-exec %s --entry=nope 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: pp-exec: error: no function @nope in {{.*}}errors.mlir (functions: @add, @add_f64, @no_results, @scalar_result,
// RUN: not pp-exec %s --entry=add --compare=nope 2>&1 | FileCheck %s --check-prefix=UNKNOWN-G
// UNKNOWN-G: pp-exec: error: no function @nope in
// RUN: not pp-exec %s --entry=external 2>&1 | FileCheck %s --check-prefix=DECL
// DECL: errors.mlir:[[# @LINE + 1]]:1: error: @external is a declaration without a body; pp-exec runs functions defined in the module
func.func private @external(tensor<4xf32>) -> tensor<4xf32>

func.func @add(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.add ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
func.func @add_f64(%a: tensor<2x3xf64>) -> tensor<2x3xf64> {
  return %a : tensor<2x3xf64>
}

// Signatures pp-exec cannot run.
// RUN: not pp-exec %s --entry=no_results 2>&1 | FileCheck %s --check-prefix=NO-RESULTS
// NO-RESULTS: errors.mlir:[[# @LINE + 1]]:1: error: @no_results has no results; pp-exec runs functions that return tensors
func.func @no_results(%a: tensor<4xf32>) {
  return
}
// RUN: not pp-exec %s --entry=scalar_result 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: errors.mlir:[[# @LINE + 1]]:1: error: result 0 of @scalar_result has type f32; pp-exec runs functions on ranked tensors
func.func @scalar_result(%a: tensor<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = tensor.extract %a[%c0] : tensor<4xf32>
  return %v : f32
}
// RUN: not pp-exec %s --entry=dynamic 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: errors.mlir:[[# @LINE + 1]]:1: error: argument 0 of @dynamic has type tensor<?x4xf32> with a dynamic shape; pp-exec needs static shapes
func.func @dynamic(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %a : tensor<?x4xf32>
}
// RUN: not pp-exec %s --entry=half 2>&1 | FileCheck %s --check-prefix=HALF
// HALF: errors.mlir:[[# @LINE + 1]]:1: error: argument 1 of @half has type tensor<4xf16>; pp-exec supports the element types f32, f64, i32 and i64
func.func @half(%a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
// RUN: not pp-exec %s --entry=unranked 2>&1 | FileCheck %s --check-prefix=UNRANKED
// UNRANKED: error: argument 0 of @unranked has type tensor<*xf32>; pp-exec runs functions on ranked tensors
func.func @unranked(%a: tensor<*xf32>) -> tensor<4xf32> {
  %r = tensor.cast %a : tensor<*xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}

// Inputs.
// RUN: not pp-exec %s --entry=add --inputs=%t/add.arg0.npy 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: pp-exec: error: @add takes 2 arguments but --inputs names 1 file
// RUN: not pp-exec %s --entry=add --inputs=%t/add.arg0.npy,%t/add.arg1.npy,%t/add.arg1.npy 2>&1 | FileCheck %s --check-prefix=COUNT3
// COUNT3: pp-exec: error: @add takes 2 arguments but --inputs names 3 files
// RUN: not pp-exec %s --entry=add --inputs=%t/add.arg0.npy,%t/add_f64.arg0.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: pp-exec: error: input 1 ({{.*}}add_f64.arg0.npy) is float64 (2, 3), but argument 1 of @add is tensor<2x3xf32> (float32 (2, 3))
// RUN: not pp-exec %s --entry=add --inputs=%t/add.arg0.npy,%S/Inputs/i32-2x2.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: pp-exec: error: input 1 ({{.*}}i32-2x2.npy) is int32 (2, 2), but argument 1 of @add is tensor<2x3xf32> (float32 (2, 3))
// RUN: not pp-exec %s --entry=add --inputs=%t/add.arg0.npy,%t/nothing.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: pp-exec: error: {{.*}}nothing.npy: cannot read: {{[Nn]}}o such file or directory
// RUN: not pp-exec %s --entry=add --inputs=%t/add.arg0.npy,%S/Inputs/not-npy.npy 2>&1 | FileCheck %s --check-prefix=NOT-NPY
// NOT-NPY: pp-exec: error: {{.*}}not-npy.npy: not an .npy file (no \x93NUMPY magic)
// RUN: not pp-exec %s --entry=add --inputs=%t/add.arg0.npy,%S/Inputs/fortran.npy 2>&1 | FileCheck %s --check-prefix=FORTRAN
// FORTRAN: pp-exec: error: {{.*}}fortran.npy: Fortran-order arrays are not supported (save a C-contiguous array, e.g. np.ascontiguousarray)
// RUN: not pp-exec %s --entry=add --inputs=%t/add.arg0.npy,%S/Inputs/big-endian.npy 2>&1 | FileCheck %s --check-prefix=BIG
// BIG: pp-exec: error: {{.*}}big-endian.npy: unsupported dtype '>f4' (little-endian <f4, <f8, <i4, <i8 are read)
// RUN: not pp-exec %s --entry=add --inputs=%t/add.arg0.npy,%S/Inputs/float16.npy 2>&1 | FileCheck %s --check-prefix=F16
// F16: pp-exec: error: {{.*}}float16.npy: unsupported dtype '<f2'
// RUN: not pp-exec %s --entry=add --inputs=%t/add.arg0.npy,%S/Inputs/truncated.npy 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: pp-exec: error: {{.*}}truncated.npy: holds 8 bytes of data, but shape (4,) of float32 needs 16
// A shape far beyond the data is refused before anything is allocated, and
// one whose element count overflows is not taken for an empty tensor (both
// found by fuzz/NpyFuzzer.cpp).
// RUN: not pp-exec %s --entry=add --inputs=%t/add.arg0.npy,%S/Inputs/huge-shape.npy 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: pp-exec: error: {{.*}}huge-shape.npy: holds 0 bytes of data, but shape (1000000000000,) of float32 needs 4000000000000
// RUN: not pp-exec %s --entry=add --inputs=%t/add.arg0.npy,%S/Inputs/overflow-shape.npy 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// OVERFLOW: pp-exec: error: {{.*}}overflow-shape.npy: holds 0 bytes of data, but shape (4294967296, 4294967296) of float32 needs more than 2^64
// An empty tensor whose other dimensions multiply past 2^63 (no signed
// overflow counting its elements; scripts/sanitize.sh checks that).
// RUN: not pp-exec %s --entry=add --inputs=%t/add.arg0.npy,%S/Inputs/empty-huge-dims.npy 2>&1 | FileCheck %s --check-prefix=EMPTY-HUGE
// EMPTY-HUGE: pp-exec: error: input 1 ({{.*}}empty-huge-dims.npy) is float32 (4294967296, 4294967296, 0), but argument 1 of @add is tensor<2x3xf32> (float32 (2, 3))

// Lowering failures show the MLIR diagnostic at the op.
// RUN: not pp-exec %s --entry=gpu_op 2>&1 | FileCheck %s --check-prefix=LOWERING
// LOWERING: errors.mlir:[[# @LINE + 4]]:8: error: 'gpu.thread_id' was not lowered to the LLVM dialect: pp-exec lowers linalg, tensor,
// LOWERING-NEXT: %t = gpu.thread_id x
// LOWERING: pp-exec: error: cannot compile {{.*}}errors.mlir for execution
func.func @gpu_op(%a: tensor<4xf32>) -> tensor<4xf32> {
  %t = gpu.thread_id x
  %v = arith.constant 1.0 : f32
  %r = tensor.insert %v into %a[%t] : tensor<4xf32>
  return %r : tensor<4xf32>
}
// RUN: not pp-exec %s --entry=calls_external 2>&1 | FileCheck %s --check-prefix=EXTERNAL
// EXTERNAL: errors.mlir:{{[0-9]+}}:1: error: @external is called but only declared: pp-exec runs functions defined in the module (or in the C and math libraries)
// EXTERNAL: pp-exec: error: cannot compile
func.func @calls_external(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = call @external(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// Functions the entry does not call are not lowered: @gpu_op is no
// obstacle to @add.
// RUN: pp-exec %s --entry=add | FileCheck %s --check-prefix=PRUNED
// PRUNED: @add result 0: tensor<2x3xf32>

// --compare needs the same signature.
// RUN: not pp-exec %s --entry=add --compare=add_f64 2>&1 | FileCheck %s --check-prefix=CMP-ARGS
// CMP-ARGS: error: --compare: @add_f64 takes 1 arguments but @add takes 2
// RUN: not pp-exec %s --entry=add --compare=add_transposed 2>&1 | FileCheck %s --check-prefix=CMP-RESULT
// CMP-RESULT: errors.mlir:[[# @LINE + 1]]:1: error: --compare: result 0 of @add_transposed is tensor<3x2xf32> but result 0 of @add is tensor<2x3xf32>
func.func @add_transposed(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  return %t : tensor<3x2xf32>
}

// --check-gradients: F must return one scalar; G must return the loss and
// one gradient per checked argument, typed like the argument.
// RUN: not pp-exec %s --entry=add --check-gradients --gradient=loss_grad 2>&1 | FileCheck %s --check-prefix=NON-SCALAR
// NON-SCALAR: errors.mlir:{{[0-9]+}}:1: error: --check-gradients: @add must return one scalar float loss (tensor<f32> or tensor<1xf32>), but returns (tensor<2x3xf32>)
// RUN: not pp-exec %s --entry=int_loss --check-gradients --gradient=loss_grad 2>&1 | FileCheck %s --check-prefix=INT-LOSS
// INT-LOSS: error: --check-gradients: @int_loss must return one scalar float loss (tensor<f32> or tensor<1xf32>), but returns (tensor<i32>)
func.func @int_loss(%x: tensor<3xf32>) -> tensor<i32> {
  %c = arith.constant dense<1> : tensor<i32>
  return %c : tensor<i32>
}
// RUN: not pp-exec %s --entry=loss --check-gradients --gradient=loss_grad_short 2>&1 | FileCheck %s --check-prefix=G-COUNT
// G-COUNT: errors.mlir:[[# @LINE + 9]]:1: error: --gradient: @loss_grad_short returns 2 results, but must return the loss and one gradient per checked argument (3 results; checked arguments: 0 1; all float arguments, or say --wrt=...)
// RUN: not pp-exec %s --entry=loss --check-gradients --gradient=loss_grad_short --wrt=0 2>&1 | FileCheck %s --check-prefix=G-TYPE
// G-TYPE: error: --gradient: result 1 of @loss_grad_short is the gradient for argument 0 and must be tensor<3xf32>, but is tensor<2xf32>
// RUN: not pp-exec %s --entry=loss --check-gradients --gradient=add 2>&1 | FileCheck %s --check-prefix=G-ARGS
// G-ARGS: error: --gradient: @add must take the arguments of @loss, but argument 0 is tensor<2x3xf32> instead of tensor<3xf32>
// RUN: not pp-exec %s --entry=loss --check-gradients --gradient=loss_grad --wrt=2 2>&1 | FileCheck %s --check-prefix=WRT-RANGE
// WRT-RANGE: error: --wrt: @loss has 2 arguments, no argument 2
// RUN: not pp-exec %s --entry=loss --check-gradients --gradient=loss_grad --wrt=1,0 2>&1 | FileCheck %s --check-prefix=WRT-ORDER
// WRT-ORDER: error: --wrt: list the arguments in increasing order, each once
func.func @loss_grad_short(%x: tensor<3xf32>, %y: tensor<2xf32>) -> (tensor<f32>, tensor<2xf32>) {
  %l = call @loss(%x, %y) : (tensor<3xf32>, tensor<2xf32>) -> tensor<f32>
  return %l, %y : tensor<f32>, tensor<2xf32>
}
func.func @loss(%x: tensor<3xf32>, %y: tensor<2xf32>) -> tensor<f32> {
  %c = arith.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}
func.func @loss_grad(%x: tensor<3xf32>, %y: tensor<2xf32>) -> (tensor<f32>, tensor<3xf32>, tensor<2xf32>) {
  %c = arith.constant dense<1.0> : tensor<f32>
  %gx = arith.constant dense<0.0> : tensor<3xf32>
  %gy = arith.constant dense<0.0> : tensor<2xf32>
  return %c, %gx, %gy : tensor<f32>, tensor<3xf32>, tensor<2xf32>
}
// RUN: not pp-exec %s --entry=int_args --check-gradients --gradient=int_args 2>&1 | FileCheck %s --check-prefix=NO-FLOAT
// NO-FLOAT: error: --check-gradients: @int_args has no float tensor arguments to check
// RUN: not pp-exec %s --entry=int_args --check-gradients --gradient=int_args --wrt=0 2>&1 | FileCheck %s --check-prefix=WRT-INT
// WRT-INT: error: --wrt: argument 0 of @int_args is tensor<2xi32>; gradients are checked for float arguments only
func.func @int_args(%k: tensor<2xi32>) -> tensor<f32> {
  %c = arith.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}
