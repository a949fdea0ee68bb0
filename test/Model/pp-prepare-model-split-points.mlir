// pp-prepare-model keeps the user's pp.split_point markers ("cut after this
// op"): each ends up on the last op, in block order, that the marked op
// became: a TOSA op lowered to linalg, a named linalg op generalized, a call
// inlined (one marker per inlined copy of a marked callee op). The markers
// travel in locations (pp-save-split-points / pp-restore-split-points),
// which come back clean.
// RUN: pp-opt %s -pp-prepare-model | FileCheck %s
// RUN: pp-opt %s -pp-prepare-model -mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
//
// The passes pp-run runs before it keep them too, and pp-partition then
// cuts exactly there: after op 1 (the inlined call's tanh), op 2 (the
// tosa.add), op 3 (the second matmul) and op 4 (the second copy of @act's
// marked tanh).
// RUN: pp-opt %s -pp-strip-instrumentation -pp-lift-parameters=function=model -pp-append-loss="function=model kind=mse" -pp-prepare-model -pp-partition="function=model_loss report-file=-" -o /dev/null | FileCheck %s --check-prefix=CUT

// CHECK-LABEL: func.func @model(
// Op 0, the first matmul (generalized), is not marked.
// CHECK:         linalg.generic {{{.*}}"reduction"]} ins(%arg0, %arg1 : {{.*}}) outs({{.*}}) {
// Op 1: the first call, inlined: @act's marked tanh.
// CHECK:         linalg.generic {{.*}} attrs = {pp.split_point} {
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      math.tanh
// Op 2: the tosa.add.
// CHECK:         linalg.generic {{.*}} attrs = {pp.split_point} {
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      arith.addf
// Op 3: the second matmul (named op, generalized).
// CHECK:         linalg.generic {{{.*}}"reduction"]} {{.*}} attrs = {pp.split_point} {
// Op 4: the second call's copy of the tanh.
// CHECK:         linalg.generic {{.*}} attrs = {pp.split_point} {
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      math.tanh
// Op 5: the last matmul, not marked.
// CHECK:         linalg.generic {{{.*}}"reduction"]} ins(%{{.*}}, %arg2 : {{.*}}) outs({{.*}}) {
// CHECK:         return

// The markers leave no trace in locations or module attributes.
// LOC-NOT: pp.split_point =
// LOC-NOT: pp.split_points

// CUT: pp-partition @model_loss: 5 stages; cuts after ops 1, 2, 3, 4 (pp.split_point markers)
// CUT-NEXT:   stage 0: 2 ops, {{.*}}, ops 0..1
// CUT-NEXT:   stage 1: 1 ops, {{.*}}, ops 2..2
// CUT-NEXT:   stage 2: 1 ops, {{.*}}, ops 3..3
// CUT-NEXT:   stage 3: 1 ops, {{.*}}, ops 4..4
// CUT-NEXT:   stage 4: {{.*}}, ops 5..

func.func private @act(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %y = tosa.tanh %x {pp.split_point} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

func.func @model(%x: tensor<2x4xf32>, %w1: tensor<4x8xf32> {pp.parameter},
                 %w2: tensor<8x8xf32> {pp.parameter}) -> tensor<2x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<2x4xf32>, tensor<4x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
  %a = func.call @act(%h) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %s = tosa.add %a, %h {pp.split_point} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %h2 = linalg.matmul {pp.split_point} ins(%s, %w2 : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
  %a2 = func.call @act(%h2) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %y = linalg.matmul ins(%a2, %w2 : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}
