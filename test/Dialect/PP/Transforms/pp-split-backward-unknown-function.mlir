// RUN: pp-opt %s -verify-diagnostics -pp-split-backward="function=nope" -o /dev/null

// expected-error @below {{pp-split-backward: no func.func named @nope}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
