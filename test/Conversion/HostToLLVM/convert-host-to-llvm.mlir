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
