// RUN: pp-opt %s -verify-diagnostics -pp-split-backward="function=nope" -o /dev/null

// expected-error @below {{no function named @nope}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
