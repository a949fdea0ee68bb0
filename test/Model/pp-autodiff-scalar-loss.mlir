// A scalar f32 loss, gradients chosen with `wrt` (listed in any order,
// returned in argument order; a float scalar argument included), and an
// argument left out (%y). tensor.extract's adjoint is a tensor.insert into
// zeros.
// RUN: pp-opt %s -pp-autodiff="function=f wrt=1,0" | FileCheck %s

// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME:    %[[X:.+]]: tensor<3xf32>, %[[S:.+]]: f32, %{{.+}}: tensor<3xf32>) -> (f32, tensor<3xf32>, f32)
// CHECK:       %[[C1:.+]] = arith.constant 1 : index
// CHECK:       %[[E:.+]] = tensor.extract %[[X]][%[[C1]]]
// CHECK:       %[[M:.+]] = arith.mulf %[[E]], %[[S]] : f32
// CHECK:       %[[T:.+]] = math.tanh %[[M]] : f32
// CHECK:       %[[SEED:.+]] = arith.constant 1.000000e+00 : f32
// CHECK:       %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK:       %[[T2:.+]] = arith.mulf %[[T]], %[[T]] : f32
// CHECK:       %[[D:.+]] = arith.subf %[[ONE]], %[[T2]] : f32
// CHECK:       %[[DM:.+]] = arith.mulf %[[SEED]], %[[D]] : f32
// CHECK:       %[[DE:.+]] = arith.mulf %[[DM]], %[[S]] : f32
// CHECK:       %[[DS:.+]] = arith.mulf %[[DM]], %[[E]] : f32
// CHECK:       %[[Z:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<3xf32>)
// CHECK:       %[[DX:.+]] = tensor.insert %[[DE]] into %[[Z]][%[[C1]]] : tensor<3xf32>
// CHECK:       return %[[T]], %[[DX]], %[[DS]] : f32, tensor<3xf32>, f32

func.func @f(%x: tensor<3xf32>, %s: f32, %y: tensor<3xf32>) -> f32 {
  %c1 = arith.constant 1 : index
  %e = tensor.extract %x[%c1] : tensor<3xf32>
  %m = arith.mulf %e, %s : f32
  %t = math.tanh %m : f32
  return %t : f32
}
