// Tied weights: %w is the first layer's and the last layer's matrix (a
// four-layer tanh network written for this test, MSE loss inside). pp-run
// keeps one copy of %w on every rank that uses it and sums the stages'
// gradients: across ranks for 1F1B and ZB-H1 on 2 ranks (stages 0 and 1)
// and 1F1B on 4 ranks (stages 0 and 3, ranks 1 and 2 hold no copy), on one
// rank for ZB-V (the V places stages 0 and 3 on rank 0). The schedules
// that add the two stages' sums (1F1B and ZB-H1 on 2 ranks, 1F1B on 4)
// train the same losses bit for bit (ZB-V adds each micro-batch's
// gradient of both stages into one buffer as they run: another order,
// equal only to float32 rounding), --check passes: the unshared gradients bitwise,
// %w's within a few float32 ulps (the pipeline sums each stage's
// micro-batches first, the unpipelined model each micro-batch's uses
// first; docs/Runtime.md), and bitwise with one micro-batch. The copies
// are identical after every update.
//
// RUN: pp-run --plan-costs=flops %s --function=tied --ranks=2 --microbatches=4 --schedule=1f1b --steps=3 --check --quiet | tee %t.1f1b | FileCheck %s --check-prefixes=CHECK,ACROSS,ONEF
// RUN: pp-run --plan-costs=flops %s --function=tied --ranks=2 --microbatches=4 --schedule=zb-h1 --steps=3 --check --quiet | tee %t.zb-h1 | FileCheck %s --check-prefixes=CHECK,ACROSS,ZBH1
// RUN: pp-run --plan-costs=flops %s --function=tied --ranks=2 --stages-per-rank=2 --microbatches=4 --schedule=zb-v --steps=3 --check --quiet | tee %t.zb-v | FileCheck %s --check-prefixes=CHECK,LOCAL
// RUN: pp-run --plan-costs=flops %s --function=tied --ranks=4 --microbatches=4 --schedule=1f1b --steps=3 --check --quiet | tee %t.p4 | FileCheck %s --check-prefixes=CHECK,P4
// RUN: %python %S/Inputs/same-losses.py %t.1f1b %t.zb-h1 %t.p4 | FileCheck %s --check-prefix=SAME
// RUN: pp-run --plan-costs=flops %s --function=tied --ranks=2 --microbatches=1 --schedule=1f1b --steps=2 --check --quiet | FileCheck %s --check-prefix=M1
//
// ONEF: pp-run: @tied on 2 ranks (inproc), 2 stages, 4 micro-batches, 1f1b
// ZBH1: pp-run: @tied on 2 ranks (inproc), 2 stages, 4 micro-batches, zb-h1
// ACROSS-NEXT: shared parameter: argument 2 is used by stage 0 (rank 0) and stage 1 (rank 1); one copy on each of ranks 0 and 1, gradients summed across ranks
// LOCAL: pp-run: @tied on 2 ranks (inproc), 4 stages, 4 micro-batches, zb-v
// LOCAL-NEXT: shared parameter: argument 2 is used by stage 0 (rank 0) and stage 3 (rank 0); one copy on rank 0, gradients summed on the rank
// P4: pp-run: @tied on 4 ranks (inproc), 4 stages, 4 micro-batches, 1f1b
// P4-NEXT: shared parameter: argument 2 is used by stage 0 (rank 0) and stage 3 (rank 3); one copy on each of ranks 0 and 3, gradients summed across ranks
// CHECK-NEXT: step 1: loss {{[0-9.]+}},
// CHECK-NEXT: check (step 1, against the unpipelined model): loss bitwise equal; 3 parameter gradients: 2 unshared bitwise equal, 1 shared max relative error {{[0-9].[0-9]+e-0[78]}} (summed over their stages in another order)
// CHECK-NEXT: check PASSED
// CHECK-NEXT: check (the update of step 1, against the unpipelined model's): 3 parameters: {{bitwise equal|2 unshared bitwise equal, 1 shared max relative error [0-9].[0-9]+e-[0-9]+}}
// CHECK-NEXT: step 2: loss
// CHECK-NEXT: step 3: loss
// CHECK: shared parameters: every copy identical after 3 updates
// CHECK-NEXT: trained 3 steps: the loss fell from
// SAME: same losses: 3 steps in 3 runs, the loss fell
//
// M1: shared parameter: argument 2 is used by stage 0 (rank 0) and stage 1 (rank 1)
// M1: check (step 1, against the unpipelined model): loss bitwise equal; 3 parameter gradients: bitwise equal
// M1-NEXT: check PASSED
// M1: shared parameters: every copy identical after 2 updates

func.func @tied(%x: tensor<2x8xf32>, %t: tensor<2x8xf32>,
                %w: tensor<8x8xf32> {pp.parameter}, %w2: tensor<8x8xf32> {pp.parameter},
                %w3: tensor<8x8xf32> {pp.parameter}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %h1 = linalg.matmul ins(%x, %w : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
  %a1 = linalg.map { math.tanh } ins(%h1 : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>)
  %h2 = linalg.matmul ins(%a1, %w2 : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
  %a2 = linalg.map { math.tanh } ins(%h2 : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>)
  %h3 = linalg.matmul ins(%a2, %w3 : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
  %a3 = linalg.map { math.tanh } ins(%h3 : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>)
  %y = linalg.matmul ins(%a3, %w : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
  %d = linalg.sub ins(%y, %t : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sq = linalg.mul ins(%d, %d : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.reduce { arith.addf } ins(%sq : tensor<2x8xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1]
  return %loss : tensor<f32>
}
