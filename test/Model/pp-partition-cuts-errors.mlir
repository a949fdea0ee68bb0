// Bad values of pp-partition's option `cuts`.
// RUN: pp-opt %s -split-input-file -verify-diagnostics -pp-partition="function=f cuts=1,0" -o /dev/null
// RUN: not pp-opt %s -pp-partition="function=f cuts=-1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not pp-opt %s -pp-partition="function=f cuts=0 num-stages=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COUNT

// RUN: not pp-opt %s -pp-partition="function=f cuts=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RANGE

// NEG: error: option 'cuts': cannot cut after op -1: @f has 3 ops that do work (numbered 0..2), so a cut goes after op 0..1
// RANGE: error: option 'cuts': cannot cut after op 2: @f has 3 ops that do work (numbered 0..2), so a cut goes after op 0..1
// COUNT: error: option 'cuts' makes 2 stages (1 cuts), but num-stages is 3

// expected-error @below {{option 'cuts' must be strictly increasing: 0 follows 1}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.map { math.exp } ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>)
  %b = linalg.map { math.exp } ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>)
  %c = linalg.map { math.exp } ins(%b : tensor<4xf32>) outs(%e : tensor<4xf32>)
  return %c : tensor<4xf32>
}
