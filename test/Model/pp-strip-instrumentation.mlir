// RUN: pp-opt %s -verify-diagnostics -pp-strip-instrumentation | FileCheck %s
// RUN: pp-opt %s -pp-strip-instrumentation="function=other" 2> %t.remarks | FileCheck %s --check-prefix=ONE
// RUN: FileCheck %s --input-file=%t.remarks --check-prefix=ONE-REMARK

// The pattern of exported models: a timestamp before and after a block of
// ops, their difference recorded with a name string; prints of tensors and
// printf through the LLVM dialect. Everything that only feeds such calls, or
// is computed from them and unused, is removed; calls whose results reach the
// model stay.

// CHECK-NOT:   @rtclock
// CHECK-NOT:   @record_timing
// CHECK-NOT:   @print_tensor
// CHECK-NOT:   @op_name_matmul
// CHECK-NOT:   @fmt
// CHECK-NOT:   @printf
// CHECK-LABEL: func.func private @scale() -> f32
// CHECK-LABEL: func.func @model(
// CHECK-SAME:      %[[X:.*]]: tensor<2x2xf32>, %[[W:.*]]: tensor<2x2xf32>)
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty()
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]]
// CHECK-NEXT:    %[[MM:.*]] = linalg.matmul ins(%[[X]], %[[W]] : {{.*}}) outs(%[[F]]
// CHECK-NEXT:    %[[S:.*]] = call @scale() : () -> f32
// CHECK-NEXT:    %[[Y:.*]] = linalg.generic
// CHECK:         return %[[Y]] : tensor<2x2xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @other(
// CHECK-NEXT:    return

// Only @other is stripped; @model keeps its instrumentation and so the
// declarations and globals it uses.
// ONE-REMARK:  remark: removed 1 call (1 to @rtclock) and 0 operations that only fed them from @other
// ONE-REMARK-NOT: remark: erased
// ONE:         llvm.mlir.global private constant @op_name_matmul
// ONE:         func.func private @rtclock
// ONE:         func.func @model(
// ONE:           call @rtclock()
// ONE:           call @record_timing(
// ONE:         func.func @other(
// ONE-NEXT:      return

// expected-remark @below {{erased 6 unused private symbols: @rtclock, @op_name_matmul, @record_timing, @print_tensor, @fmt, @printf}}
module {
  llvm.mlir.global private constant @op_name_matmul("matmul\00") {addr_space = 0 : i32}
  llvm.mlir.global internal constant @fmt("done\0A\00") {addr_space = 0 : i32}
  llvm.func @printf(!llvm.ptr, ...) -> i32
  func.func private @rtclock() -> f64
  func.func private @record_timing(!llvm.ptr, f64)
  func.func private @print_tensor(tensor<2x2xf32>)
  func.func private @scale() -> f32

  // expected-remark @below {{removed 5 calls (2 to @rtclock, 1 to @record_timing, 1 to @print_tensor, 1 to @printf) and 4 operations that only fed them from @model}}
  func.func @model(%x: tensor<2x2xf32>, %w: tensor<2x2xf32>) -> tensor<2x2xf32> {
    %t0 = call @rtclock() : () -> f64
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x2xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
    %t1 = call @rtclock() : () -> f64
    %d = arith.subf %t1, %t0 : f64
    %unused = arith.mulf %d, %d : f64
    %name = llvm.mlir.addressof @op_name_matmul : !llvm.ptr
    call @record_timing(%name, %d) : (!llvm.ptr, f64) -> ()
    call @print_tensor(%mm) : (tensor<2x2xf32>) -> ()
    %fmt = llvm.mlir.addressof @fmt : !llvm.ptr
    %n = llvm.call @printf(%fmt) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr) -> i32
    %s = call @scale() : () -> f32
    %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.mulf %in, %s : f32
      linalg.yield %m : f32
    } -> tensor<2x2xf32>
    return %y : tensor<2x2xf32>
  }

  // expected-remark @below {{removed 1 call (1 to @rtclock) and 0 operations that only fed them from @other}}
  func.func @other() {
    %t = call @rtclock() : () -> f64
    return
  }
}
