// RUN: pp-opt %s -pass-pipeline='builtin.module(func.func(pp-gpu-fuse-elementwise))' | FileCheck %s

// Named ops become linalg.generic; the broadcast, the add and the exp fuse
// into one op; tanh feeds a matmul and stays apart (contractions keep their
// form for cuBLAS); x*x+x*x is one op.
// CHECK-LABEL: func.func @chain
// CHECK:      %[[T:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   math.tanh
// CHECK:      %[[Z:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x16xf32>)
// CHECK:      %[[H:.*]] = linalg.matmul ins(%[[T]], %arg1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[Z]] : tensor<4x16xf32>)
// CHECK:      %[[A:.*]] = linalg.generic {{.*}} ins(%[[H]], %arg2 : tensor<4x16xf32>, tensor<16xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   arith.addf
// CHECK-NEXT:   math.exp
// CHECK-NEXT:   linalg.yield
// CHECK:      %[[N:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   arith.mulf
// CHECK-NEXT:   arith.addf
// CHECK-NEXT:   linalg.yield
// CHECK:      return %[[A]], %[[N]]
func.func @chain(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> (tensor<4x16xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %ex = tensor.empty() : tensor<4x8xf32>
  %t = linalg.map { math.tanh } ins(%x : tensor<4x8xf32>) outs(%ex : tensor<4x8xf32>)
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h = linalg.matmul ins(%t, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %bb = linalg.broadcast ins(%b : tensor<16xf32>) outs(%e : tensor<4x16xf32>) dimensions = [0]
  %s = linalg.add ins(%h, %bb : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %a = linalg.map { math.exp } ins(%s : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>)
  %m = linalg.mul ins(%x, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%ex : tensor<4x8xf32>) -> tensor<4x8xf32>
  %n = linalg.add ins(%m, %m : tensor<4x8xf32>, tensor<4x8xf32>) outs(%ex : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %a, %n : tensor<4x16xf32>, tensor<4x8xf32>
}

// A producer with two consumers is not fused (that would compute it twice).
// CHECK-LABEL: func.func @shared
// CHECK:      %[[E:.*]] = linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   math.exp
// CHECK:      linalg.generic {{.*}} ins(%[[E]]
// CHECK:      linalg.generic {{.*}} ins(%[[E]]
func.func @shared(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.map { math.exp } ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>)
  %b = linalg.map { math.tanh } ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>)
  %c = linalg.map { math.log } ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>)
  return %b, %c : tensor<8xf32>, tensor<8xf32>
}
