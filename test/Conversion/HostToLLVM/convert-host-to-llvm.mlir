// convert-host-to-llvm: host code on buffers (the CPU JIT's, after its
// loops are cf branches) to the LLVM dialect in one conversion: memref,
// arith, index, cf, ub and func together, vector through
// convert-vector-to-llvm in the functions that have vector ops. What is
// left is LLVM plus the conversion casts reconcile-unrealized-casts folds.
// RUN: pp-opt %s -convert-host-to-llvm -split-input-file | FileCheck %s
// RUN: pp-opt %s -convert-host-to-llvm=generic-allocator -split-input-file | FileCheck %s --check-prefix=GENERIC

// Every dialect of a rank program's kind of code at once: an allocation
// freed after its last use, a call taking the buffer, constants of arith
// and index, a branch, ub.poison.
// CHECK-LABEL: llvm.func @stage(
// CHECK-SAME:    %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// CHECK-LABEL: llvm.func @rank(
// CHECK:         %[[SIZE:.*]] = llvm.ptrtoint
// CHECK:         llvm.call @malloc(%[[SIZE]])
// CHECK:         llvm.call @stage(
// CHECK:         llvm.load
// CHECK:         llvm.call @free(
// CHECK:         llvm.br ^bb1
// CHECK:       ^bb1(%[[X:.*]]: f32):
// CHECK:         llvm.fadd %[[X]], %[[X]] : f32
// CHECK:         llvm.return
// CHECK-NOT:   func.func
// CHECK-NOT:   memref.
// CHECK-NOT:   arith.
// CHECK-NOT:   index.
// CHECK-NOT:   cf.
// CHECK-NOT:   ub.
// GENERIC-LABEL: llvm.func @rank(
// GENERIC:         llvm.call @_mlir_memref_to_llvm_alloc(
// GENERIC:         llvm.call @_mlir_memref_to_llvm_free(
// GENERIC-NOT:     @malloc
func.func private @stage(%buffer: memref<4xf32>) {
  %poison = ub.poison : f32
  %c1 = index.constant 1
  memref.store %poison, %buffer[%c1] : memref<4xf32>
  return
}

func.func @rank() -> f32 {
  %c0 = arith.constant 0 : index
  %buffer = memref.alloc() : memref<4xf32>
  call @stage(%buffer) : (memref<4xf32>) -> ()
  %x = memref.load %buffer[%c0] : memref<4xf32>
  memref.dealloc %buffer : memref<4xf32>
  cf.br ^next(%x : f32)
^next(%y: f32):
  %z = arith.addf %y, %y : f32
  return %z : f32
}

// -----

// A vector store is lowered by convert-vector-to-llvm in its function; the
// function without vector ops is converted all the same.
// CHECK-LABEL: llvm.func @vectors(
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<4xf32>, !llvm.ptr
// CHECK-NOT:     vector.
// CHECK-LABEL: llvm.func @scalars(
// CHECK:         llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr
func.func @vectors(%buffer: memref<4xf32>, %v: vector<4xf32>) {
  %c0 = arith.constant 0 : index
  vector.store %v, %buffer[%c0] : memref<4xf32>, vector<4xf32>
  return
}

func.func @scalars(%buffer: memref<4xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  memref.store %x, %buffer[%c0] : memref<4xf32>
  return
}

// -----

// What the conversion declares or defines itself while it converts the
// functions (the global and the assert's message, abort and puts, the C
// interface wrapper), a copy, and a call to a function defined after its
// caller: one symbol table serves all of them.
// CHECK-DAG:   llvm.func @abort()
// CHECK-DAG:   llvm.func @puts(!llvm.ptr)
// CHECK-DAG:   llvm.mlir.global private constant @assert_msg_0(
// CHECK-DAG:   llvm.mlir.global private constant @table(dense<{{.*}}> : tensor<2xf32>)
// CHECK-LABEL: llvm.func @entry(
// CHECK:         llvm.mlir.addressof @table
// CHECK:         "llvm.intr.memcpy"
// CHECK:         llvm.call @later(
// CHECK:         llvm.call @puts(
// CHECK:         llvm.call @abort()
// CHECK-LABEL: llvm.func @_mlir_ciface_entry(
// CHECK:         llvm.call @entry(
// CHECK-LABEL: llvm.func @later(
memref.global "private" constant @table : memref<2xf32> = dense<[1.0, 2.0]>

func.func @entry(%out: memref<2xf32>, %ok: i1) attributes {llvm.emit_c_interface} {
  %t = memref.get_global @table : memref<2xf32>
  memref.copy %t, %out : memref<2xf32> to memref<2xf32>
  cf.assert %ok, "table copied"
  call @later(%out) : (memref<2xf32>) -> ()
  return
}

func.func private @later(%buffer: memref<2xf32>) {
  return
}
