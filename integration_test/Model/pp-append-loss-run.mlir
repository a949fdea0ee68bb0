// Runs the generated losses on the CPU (pp-exec) on fixed inputs. The
// drivers, below as `// MAIN-*:` lines, call @logits_loss, which exists only
// after the pass: they are appended to its output.

// RUN: pp-opt %s -pp-append-loss="function=logits kind=cross-entropy" | sed '/^}$/d' > %t.ce.mlir
// RUN: grep '^// MAIN-CE:' %s | sed 's|^// MAIN-CE:||' >> %t.ce.mlir
// RUN: echo '}' >> %t.ce.mlir
// RUN: pp-exec %t.ce.mlir --entry=cross_entropy | FileCheck %s --check-prefix=CE

// RUN: pp-opt %s -pp-append-loss="function=logits kind=mse" | sed '/^}$/d' > %t.mse.mlir
// RUN: grep '^// MAIN-MSE:' %s | sed 's|^// MAIN-MSE:||' >> %t.mse.mlir
// RUN: echo '}' >> %t.mse.mlir
// RUN: pp-exec %t.mse.mlir --entry=mse | FileCheck %s --check-prefix=MSE

// Rows: logsumexp - logit of the label (stable for large logits):
//   [1, 2, 3, 4], label 3:          log(e^1 + e^2 + e^3 + e^4) - 4 = 0.4401897
//   [100, -100, 0, 50], label 1:    100 + log(1 + e^-50 + ...) + 100 = 200.0
//   [0.5, 0.5, 0.5, 0.5], label -100 (ignored)
// mean over the 2 counted rows: 100.2200949
// CE: values = [100.2200

// MSE against 0.5: (0.25 + 2.25 + 6.25 + 12.25 + 9900.25 + 10100.25 + 0.25
// + 2450.25 + 0) / 12 = 1872.6667
// MSE: values = [1872.666

func.func @logits(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  return %x : tensor<3x4xf32>
}

// MAIN-CE:  func.func @cross_entropy() -> tensor<f32> {
// MAIN-CE:    %x = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [100.0, -100.0, 0.0, 50.0], [0.5, 0.5, 0.5, 0.5]]> : tensor<3x4xf32>
// MAIN-CE:    %l = arith.constant dense<[3, 1, -100]> : tensor<3xi32>
// MAIN-CE:    %r = func.call @logits_loss(%x, %l) : (tensor<3x4xf32>, tensor<3xi32>) -> tensor<f32>
// MAIN-CE:    return %r : tensor<f32>
// MAIN-CE:  }

// MAIN-MSE:  func.func @mse() -> tensor<f32> {
// MAIN-MSE:    %x = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [100.0, -100.0, 0.0, 50.0], [0.5, 0.5, 0.5, 0.5]]> : tensor<3x4xf32>
// MAIN-MSE:    %t = arith.constant dense<0.5> : tensor<3x4xf32>
// MAIN-MSE:    %r = func.call @logits_loss(%x, %t) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<f32>
// MAIN-MSE:    return %r : tensor<f32>
// MAIN-MSE:  }
