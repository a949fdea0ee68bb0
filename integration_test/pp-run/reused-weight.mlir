// A weight used twice: %w2 is the matrix of the second and the third layer
// (a four-layer tanh network written for this test, MSE loss inside).
// 1F1B and ZB-H1 on 2 ranks cut between the two uses (stages 0 and 1, one
// copy on each rank, gradients summed across ranks); ZB-V's V places
// stages 1 and 2 on rank 1 (one copy, summed on the rank); 1F1B on 4 ranks
// puts them on ranks 1 and 2 (ranks 0 and 3 hold no copy). The same losses
// bit for bit under the schedules that add the two stages' sums (all but
// ZB-V, which adds every gradient into one buffer as it runs), --check PASSED (the unshared gradients bitwise, the
// shared one within float32 rounding: docs/Runtime.md), identical copies.
//
// RUN: pp-run --plan-costs=flops %s --function=reused --ranks=2 --microbatches=4 --schedule=1f1b --steps=3 --check --quiet | tee %t.1f1b | FileCheck %s --check-prefixes=CHECK,ACROSS,ONEF
// RUN: pp-run --plan-costs=flops %s --function=reused --ranks=2 --microbatches=4 --schedule=zb-h1 --steps=3 --check --quiet | tee %t.zb-h1 | FileCheck %s --check-prefixes=CHECK,ACROSS,ZBH1
// RUN: pp-run --plan-costs=flops %s --function=reused --ranks=2 --stages-per-rank=2 --microbatches=4 --schedule=zb-v --steps=3 --check --quiet | tee %t.zb-v | FileCheck %s --check-prefixes=CHECK,LOCAL
// RUN: pp-run --plan-costs=flops %s --function=reused --ranks=4 --microbatches=4 --schedule=1f1b --steps=3 --check --quiet | tee %t.p4 | FileCheck %s --check-prefixes=CHECK,P4
// RUN: %python %S/Inputs/same-losses.py %t.1f1b %t.zb-h1 %t.p4 | FileCheck %s --check-prefix=SAME
//
// ONEF: pp-run: @reused on 2 ranks (inproc), 2 stages, 4 micro-batches, 1f1b
// ZBH1: pp-run: @reused on 2 ranks (inproc), 2 stages, 4 micro-batches, zb-h1
// ACROSS-NEXT: shared parameter: argument 3 is used by stage 0 (rank 0) and stage 1 (rank 1); one copy on each of ranks 0 and 1, gradients summed across ranks
// LOCAL: pp-run: @reused on 2 ranks (inproc), 4 stages, 4 micro-batches, zb-v
// LOCAL-NEXT: shared parameter: argument 3 is used by stage 1 (rank 1) and stage 2 (rank 1); one copy on rank 1, gradients summed on the rank
// P4: pp-run: @reused on 4 ranks (inproc), 4 stages, 4 micro-batches, 1f1b
// P4-NEXT: shared parameter: argument 3 is used by stage 1 (rank 1) and stage 2 (rank 2); one copy on each of ranks 1 and 2, gradients summed across ranks
// CHECK-NEXT: step 1: loss {{[0-9.]+}},
// CHECK-NEXT: check (step 1, against the unpipelined model): loss bitwise equal; 3 parameter gradients: 2 unshared bitwise equal, 1 shared max relative error {{[0-9].[0-9]+e-0[78]}} (summed over their stages in another order)
// CHECK-NEXT: check PASSED
// CHECK: step 3: loss
// CHECK: shared parameters: every copy identical after 3 updates
// CHECK-NEXT: trained 3 steps: the loss fell from
// SAME: same losses: 3 steps in 3 runs, the loss fell

func.func @reused(%x: tensor<2x8xf32>, %t: tensor<2x8xf32>,
                %w: tensor<8x8xf32> {pp.parameter}, %w2: tensor<8x8xf32> {pp.parameter},
                %w3: tensor<8x8xf32> {pp.parameter}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %h1 = linalg.matmul ins(%x, %w : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
  %a1 = linalg.map { math.tanh } ins(%h1 : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>)
  %h2 = linalg.matmul ins(%a1, %w2 : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
  %a2 = linalg.map { math.tanh } ins(%h2 : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>)
  %h3 = linalg.matmul ins(%a2, %w2 : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
  %a3 = linalg.map { math.tanh } ins(%h3 : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>)
  %y = linalg.matmul ins(%a3, %w3 : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
  %d = linalg.sub ins(%y, %t : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sq = linalg.mul ins(%d, %d : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.reduce { arith.addf } ins(%sq : tensor<2x8xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1]
  return %loss : tensor<f32>
}
