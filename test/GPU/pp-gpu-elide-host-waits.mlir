// RUN: pp-opt %s -pass-pipeline='builtin.module(func.func(pp-gpu-elide-host-waits))' | FileCheck %s

// The host wait gpu-async-region puts before a call goes when the callee
// runs on the stream (pp.stream_ordered: the cuBLAS GEMM); it stays before
// other calls and where the call does not follow it directly.
// CHECK-LABEL: func.func @waits
// CHECK:      %[[T0:.*]] = gpu.wait async
// CHECK-NOT:  gpu.wait [%[[T0]]]
// CHECK:      call @gemm()
// CHECK:      %[[T1:.*]] = gpu.wait async
// CHECK-NEXT: gpu.wait [%[[T1]]]
// CHECK-NEXT: call @host()
// CHECK:      %[[T2:.*]] = gpu.wait async
// CHECK-NEXT: gpu.wait [%[[T2]]]
// CHECK-NEXT: arith.constant
// CHECK-NEXT: call @gemm()
func.func private @gemm() attributes {pp.stream_ordered}
func.func private @host()
func.func @waits() {
  %t0 = gpu.wait async
  gpu.wait [%t0]
  func.call @gemm() : () -> ()
  %t1 = gpu.wait async
  gpu.wait [%t1]
  func.call @host() : () -> ()
  %t2 = gpu.wait async
  gpu.wait [%t2]
  %c = arith.constant 0 : index
  func.call @gemm() : () -> ()
  return
}
