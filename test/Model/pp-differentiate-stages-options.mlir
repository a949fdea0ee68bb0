// RUN: not pp-opt %s -pp-differentiate-stages=pipeline=nope 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not pp-opt %s -pp-differentiate-stages 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: not pp-opt %s -pp-differentiate-stages="pipeline=a flops-per-us=0" 2>&1 | FileCheck %s --check-prefix=FLOPS
// RUN: pp-opt %s -pp-differentiate-stages=pipeline=a | FileCheck %s --check-prefix=NAMED

// UNKNOWN: error: no pp.pipeline named @nope
// TWO: error: the module has 2 pp.pipeline ops; name one with the 'pipeline' option
// FLOPS: error: option 'flops-per-us' must be positive
// NAMED: pp.stage 0 on rank 0 forward @f_forward backward_input @f_backward_input backward_weight @f_backward_weight
// NAMED: pp.stage 0 on rank 0 forward @g{{$}}

pp.pipeline @a ranks(1) {
  pp.stage 0 on rank 0 forward @f
}
pp.pipeline @b ranks(1) {
  pp.stage 0 on rank 0 forward @g
}
func.func @f(%w: tensor<4xf32> {pp.parameter}) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.map { math.exp } ins(%w : tensor<4xf32>) outs(%e : tensor<4xf32>)
  return %y : tensor<4xf32>
}
func.func @g(%w: tensor<4xf32> {pp.parameter}) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}
