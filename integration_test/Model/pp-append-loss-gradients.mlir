// The losses are differentiable by pp-autodiff: gradient checks of both
// against central finite differences (pp-exec), in f64, for a linear model.

// RUN: pp-opt %s -pp-append-loss="function=net kind=mse" -pp-prepare-model -pp-autodiff="function=net_loss" > %t.mse.mlir
// RUN: pp-exec %t.mse.mlir --entry=net_loss --check-gradients --gradient=net_loss_grad | FileCheck %s

// Labels 0, 4, 2 and -100 (ignored), as a .npy file.
// RUN: %python -c "import struct; h=\"{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }\"; h+=' '*(63-(10+len(h))%%64)+'\n'; open('%t.labels.npy','wb').write(b'\x93NUMPY\x01\x00'+struct.pack('<H',len(h))+h.encode()+struct.pack('<4i',0,4,2,-100))"
// RUN: pp-opt %s -pp-append-loss="function=net kind=cross-entropy" -pp-prepare-model -pp-autodiff="function=net_loss wrt=0,1" > %t.ce.mlir
// RUN: pp-exec %t.ce.mlir --entry=net_loss --check-gradients --gradient=net_loss_grad --wrt=0,1 --inputs=,,%t.labels.npy | FileCheck %s

// CHECK: gradient check PASSED

func.func @net(%x: tensor<4x3xf64>, %w: tensor<3x5xf64> {pp.parameter}) -> tensor<4x5xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<4x5xf64>
  %z = linalg.fill ins(%zero : f64) outs(%e : tensor<4x5xf64>) -> tensor<4x5xf64>
  %y = linalg.matmul ins(%x, %w : tensor<4x3xf64>, tensor<3x5xf64>) outs(%z : tensor<4x5xf64>) -> tensor<4x5xf64>
  return %y : tensor<4x5xf64>
}
