// RUN: pp-opt %s -split-input-file -verify-diagnostics -pp-append-loss="function=f kind=cross-entropy" -o /dev/null

// expected-error @below {{no function named @f}}
module {
  func.func @g(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
    return %x : tensor<2x3xf32>
  }
}

// -----

// expected-error @below {{@f is a declaration; it has no body to copy}}
func.func private @f(tensor<2x3xf32>) -> tensor<2x3xf32>

// -----

// expected-error @below {{@f has 2 results; a loss needs exactly one (the output or the logits)}}
func.func @f(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  return %x, %x : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// expected-error @below {{@f has 0 results; a loss needs exactly one (the output or the logits)}}
func.func @f(%x: tensor<2x3xf32>) {
  return
}

// -----

// expected-error @below {{@f returns 'tensor<2x3xi32>', an integer result; a loss needs a float output}}
func.func @f(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  return %x : tensor<2x3xi32>
}

// -----

// expected-error @below {{@f returns 'memref<2x3xf32>'; a loss needs a ranked tensor of floats}}
func.func @f(%x: memref<2x3xf32>) -> memref<2x3xf32> {
  return %x : memref<2x3xf32>
}

// -----

// expected-error @below {{@f returns 'tensor<?x3xf32>', of dynamic shape; the loss needs a static shape}}
func.func @f(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  return %x : tensor<?x3xf32>
}

// -----

// expected-error @below {{cross-entropy needs logits of rank 2 (batch x classes), but @f returns 'tensor<2x3x4xf32>'}}
func.func @f(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  return %x : tensor<2x3x4xf32>
}

// -----

// expected-error @below {{a symbol named @f_loss already exists}}
func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  return %x : tensor<2x3xf32>
}

func.func @f_loss() {
  return
}
