// RUN: pp-opt %s -pass-pipeline='builtin.module(func.func(pp-gpu-wrap-host-loops))' -split-input-file -verify-diagnostics | FileCheck %s

// A full reduction (no parallel dimension) and a 0-d store, with the
// scalar arithmetic between them, become one single-iteration two-level
// scf.parallel (one block of one thread once mapped); the parallel loop
// before stays as it is.
// CHECK-LABEL: func.func @loss
// CHECK:      scf.parallel (%{{.*}}) = (%c0) to (%c4) step (%c1) {
// CHECK:        memref.store %{{.*}}, %arg1[%{{.*}}]
// CHECK:      %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[O:.*]] = arith.constant 1 : index
// CHECK-NEXT: scf.parallel (%{{.*}}) = (%[[Z]]) to (%[[O]]) step (%[[O]]) {
// CHECK-NEXT:   scf.parallel (%{{.*}}) = (%[[Z]]) to (%[[O]]) step (%[[O]]) {
// CHECK-NEXT:     memref.store %cst, %arg2[]
// CHECK-NEXT:     scf.for
// CHECK:          arith.mulf
// CHECK-NEXT:     memref.store %{{.*}}, %arg2[]
// CHECK-NEXT:     scf.reduce
// CHECK-NEXT:   }
// CHECK-NEXT:   scf.reduce
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @loss(%x: memref<4xf32>, %y: memref<4xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cst = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %v = memref.load %x[%i] : memref<4xf32>
    memref.store %v, %y[%i] : memref<4xf32>
    scf.reduce
  }
  memref.store %cst, %out[] : memref<f32>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %y[%i] : memref<4xf32>
    %acc = memref.load %out[] : memref<f32>
    %s = arith.addf %acc, %v : f32
    memref.store %s, %out[] : memref<f32>
  }
  %total = memref.load %out[] : memref<f32>
  %scaled = arith.mulf %total, %half : f32
  memref.store %scaled, %out[] : memref<f32>
  return
}

// -----

// A load whose value host code uses cannot move into a kernel.
func.func private @use(f32)
func.func @escapes(%x: memref<f32>) {
  // expected-error @below {{host code accesses a buffer, which lives in GPU memory, and pp-gpu-wrap-host-loops cannot move it into a kernel (host code uses a value computed from buffer contents, or the access is inside an op with results)}}
  %v = memref.load %x[] : memref<f32>
  func.call @use(%v) : (f32) -> ()
  return
}

// -----

// A free between two serial parts does not split the kernel: it moves after
// it (freeing later is always safe).
// CHECK-LABEL: func.func @free_between
// CHECK:      scf.parallel
// CHECK-NEXT:   scf.parallel
// CHECK-NEXT:     memref.load %[[T:.*]][]
// CHECK-NEXT:     memref.store %{{.*}}, %arg0[]
// CHECK-NEXT:     memref.store %{{.*}}, %arg1[]
// CHECK:      gpu.dealloc %[[T]]
// CHECK-NEXT: return
func.func @free_between(%x: memref<f32>, %y: memref<f32>) {
  %cst = arith.constant 1.0 : f32
  %t = gpu.alloc () : memref<f32>
  %v = memref.load %t[] : memref<f32>
  memref.store %v, %x[] : memref<f32>
  gpu.dealloc %t : memref<f32>
  memref.store %cst, %y[] : memref<f32>
  return
}

// -----

// Scalar arithmetic inside a run that host code uses later, and that does
// not depend on buffer contents, stays on the host before the kernel; an
// access under scf.if is part of the run.
// CHECK-LABEL: func.func @scalars_and_conditionals
// CHECK:      %[[M:.*]] = arith.addi %arg2, %arg2 : index
// CHECK:      scf.parallel
// CHECK-NEXT:   scf.parallel
// CHECK-NEXT:     memref.store %{{.*}}, %arg0[]
// CHECK-NEXT:     scf.if %arg3 {
// CHECK-NEXT:       memref.store %{{.*}}, %arg1[]
// CHECK:      call @use_index(%[[M]])
func.func private @use_index(index)
func.func @scalars_and_conditionals(%x: memref<f32>, %y: memref<f32>, %n: index, %flag: i1) {
  %cst = arith.constant 1.0 : f32
  memref.store %cst, %x[] : memref<f32>
  %m = arith.addi %n, %n : index
  scf.if %flag {
    memref.store %cst, %y[] : memref<f32>
  }
  func.call @use_index(%m) : (index) -> ()
  return
}
