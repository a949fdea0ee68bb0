// RUN: pp-opt %s -pass-pipeline='builtin.module(func.func(pp-gpu-device-memory))' -split-input-file -verify-diagnostics | FileCheck %s

// Allocations, deallocations, constants and copies of host code move to
// device memory; loads and stores are left for the kernels.
// CHECK-LABEL: func.func @buffers
// CHECK:      %[[A:.*]] = gpu.alloc () : memref<4xf32>
// CHECK:      %[[S:.*]] = gpu.alloc () : memref<2xf32>
// CHECK:      %[[G:.*]] = memref.get_global @weights : memref<4xf32>
// CHECK-NEXT: %[[D:.*]] = gpu.alloc () : memref<4xf32>
// CHECK-NEXT: gpu.memcpy %[[D]], %[[G]] : memref<4xf32>, memref<4xf32>
// The heap buffer is freed right after its last use, not where
// deallocation put it (the end of the block).
// CHECK:      linalg.copy ins(%[[D]] : memref<4xf32>) outs(%[[A]] : memref<4xf32>)
// CHECK-NEXT: gpu.dealloc %[[A]] : memref<4xf32>
// CHECK-NEXT: linalg.copy ins(%arg0 : memref<2xf32>) outs(%[[S]] : memref<2xf32>)
// CHECK-NOT:  memref.alloc
// CHECK-NOT:  memref.dealloc
// CHECK-NOT:  memref.copy
// CHECK:      gpu.dealloc %[[S]] : memref<2xf32>
// CHECK-NEXT: gpu.dealloc %[[D]] : memref<4xf32>
// CHECK-NEXT: return
memref.global "private" constant @weights : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @buffers(%x: memref<2xf32>) {
  %a = memref.alloc() : memref<4xf32>
  %s = memref.alloca() : memref<2xf32>
  %g = memref.get_global @weights : memref<4xf32>
  memref.copy %g, %a : memref<4xf32> to memref<4xf32>
  memref.copy %x, %s : memref<2xf32> to memref<2xf32>
  memref.dealloc %a : memref<4xf32>
  return
}

// -----

// A buffer's last use may be through a value derived from it: a view, or
// its address passed to a call (as pp-gpu-gemm-to-runtime passes GEMM
// operands); the free comes after that, and after uses in nested regions.
// CHECK-LABEL: func.func @derived
// CHECK:      %[[A:.*]] = gpu.alloc () : memref<8xf32>
// CHECK:      %[[B:.*]] = gpu.alloc () : memref<8xf32>
// CHECK:      memref.subview %[[A]]
// CHECK:      call @consume(
// CHECK-NEXT: gpu.dealloc %[[A]]
// CHECK-NEXT: scf.for
// CHECK:        linalg.copy ins(%[[B]]
// CHECK:      }
// CHECK-NEXT: gpu.dealloc %[[B]]
// CHECK-NEXT: call @other()
// CHECK-NEXT: return
func.func private @consume(i64)
func.func private @other()
func.func @derived(%n: index, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<8xf32>
  %b = memref.alloc() : memref<8xf32>
  %view = memref.subview %a[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  %p = memref.extract_aligned_pointer_as_index %view : memref<4xf32, strided<[1], offset: 2>> -> index
  %i = arith.index_cast %p : index to i64
  func.call @consume(%i) : (i64) -> ()
  scf.for %k = %c0 to %n step %c1 {
    memref.copy %b, %out : memref<8xf32> to memref<8xf32>
  }
  func.call @other() : () -> ()
  memref.dealloc %a : memref<8xf32>
  memref.dealloc %b : memref<8xf32>
  return
}

// -----

// A buffer yielded out of a region lives on in the op's result: the free
// comes after the result's last use.
// CHECK-LABEL: func.func @yielded
// CHECK:      %[[A:.*]] = gpu.alloc () : memref<8xf32>
// CHECK:      %[[R:.*]] = scf.if
// CHECK:      linalg.copy ins(%[[R]]
// CHECK-NEXT: gpu.dealloc %[[A]]
// CHECK-NEXT: call @later()
func.func private @later()
func.func @yielded(%flag: i1, %other: memref<8xf32>, %out: memref<8xf32>) {
  %a = memref.alloc() : memref<8xf32>
  %r = scf.if %flag -> memref<8xf32> {
    scf.yield %a : memref<8xf32>
  } else {
    scf.yield %other : memref<8xf32>
  }
  memref.copy %r, %out : memref<8xf32> to memref<8xf32>
  func.call @later() : () -> ()
  memref.dealloc %a : memref<8xf32>
  return
}

// -----

// Dynamic sizes carry over.
// CHECK-LABEL: func.func @dynamic
// CHECK: gpu.alloc (%arg0) : memref<?x8xf64>
func.func @dynamic(%n: index) {
  %a = memref.alloc(%n) : memref<?x8xf64>
  memref.dealloc %a : memref<?x8xf64>
  return
}

// -----

// A stack buffer inside a loop has no place for its gpu.dealloc.
func.func @nested(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @below {{'gpu.alloc' op is not at the top level of a one-block function; pp-gpu-device-memory cannot place its device buffer's gpu.dealloc}}
    %s = memref.alloca() : memref<2xf32>
  }
  return
}
