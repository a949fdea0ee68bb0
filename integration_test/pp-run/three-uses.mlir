// A weight used by three layers: %w is the matrix of the first, third and
// fourth layer (a four-layer tanh network written for this test, MSE loss
// inside). ZB-V's V puts its stages 0 and 3 on rank 0 and stage 2 on rank
// 1: rank 0's two uses add into one copy's gradient, then the ranks' sums
// are added (local and across ranks at once; also under mpirun). 1F1B on 4
// ranks keeps three copies (ranks 0, 2 and 3). --check PASSED, identical
// copies, and under mpirun the in-process run's losses bit for bit (the
// two schedules add the three uses in different orders, so they agree to
// float32 rounding only).
//
// RUN: pp-run --plan-costs=flops %s --function=thrice --ranks=2 --stages-per-rank=2 --microbatches=4 --schedule=zb-v --steps=3 --check --quiet | tee %t.zbv | FileCheck %s --check-prefixes=CHECK,ZBV
// RUN: pp-run --plan-costs=flops %s --function=thrice --ranks=4 --microbatches=4 --schedule=1f1b --steps=3 --check --quiet | FileCheck %s --check-prefixes=CHECK,P4
// RUN: %if mpi %{ %mpirun -np 2 pp-run --plan-costs=flops %s --function=thrice --ranks=2 --stages-per-rank=2 --microbatches=4 --schedule=zb-v --steps=3 --check --transport=mpi --quiet | tee %t.mpi | FileCheck %s --check-prefixes=CHECK,MPI %}
// RUN: %if mpi %{ %python %S/Inputs/same-losses.py %t.zbv %t.mpi | FileCheck %s --check-prefix=SAMEMPI %}
//
// ZBV: pp-run: @thrice on 2 ranks (inproc), 4 stages, 4 micro-batches, zb-v
// MPI: pp-run: @thrice on 2 ranks (mpi), 4 stages, 4 micro-batches, zb-v
// ZBV-NEXT: shared parameter: argument 2 is used by stage 0 (rank 0), stage 2 (rank 1) and stage 3 (rank 0); one copy on each of ranks 0 and 1, gradients summed across ranks
// MPI-NEXT: shared parameter: argument 2 is used by stage 0 (rank 0), stage 2 (rank 1) and stage 3 (rank 0); one copy on each of ranks 0 and 1, gradients summed across ranks
// P4: pp-run: @thrice on 4 ranks (inproc), 4 stages, 4 micro-batches, 1f1b
// P4-NEXT: shared parameter: argument 2 is used by stage 0 (rank 0), stage 2 (rank 2) and stage 3 (rank 3); one copy on each of ranks 0, 2 and 3, gradients summed across ranks
// CHECK-NEXT: step 1: loss {{[0-9.]+}},
// CHECK-NEXT: check (step 1, against the unpipelined model): loss bitwise equal; 3 parameter gradients: 2 unshared bitwise equal, 1 shared max relative error {{[0-9].[0-9]+e-0[78]}} (summed over their stages in another order)
// CHECK-NEXT: check PASSED
// CHECK-NEXT: check (the update of step 1, against the unpipelined model's): 3 parameters: {{bitwise equal|2 unshared bitwise equal, 1 shared max relative error [0-9].[0-9]+e-[0-9]+}}
// CHECK-NEXT: step 2: loss
// CHECK-NEXT: step 3: loss
// CHECK: shared parameters: every copy identical after 3 updates
// CHECK-NEXT: trained 3 steps: the loss fell from
// SAMEMPI: same losses: 3 steps in 2 runs, the loss fell

func.func @thrice(%x: tensor<2x8xf32>, %t: tensor<2x8xf32>,
                %w: tensor<8x8xf32> {pp.parameter}, %w2: tensor<8x8xf32> {pp.parameter},
                %w3: tensor<8x8xf32> {pp.parameter}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %h1 = linalg.matmul ins(%x, %w : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
  %a1 = linalg.map { math.tanh } ins(%h1 : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>)
  %h2 = linalg.matmul ins(%a1, %w2 : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
  %a2 = linalg.map { math.tanh } ins(%h2 : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>)
  %h3 = linalg.matmul ins(%a2, %w  : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
  %a3 = linalg.map { math.tanh } ins(%h3 : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>)
  %y = linalg.matmul ins(%a3, %w : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
  %d = linalg.sub ins(%y, %t : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sq = linalg.mul ins(%d, %d : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.reduce { arith.addf } ins(%sq : tensor<2x8xf32>) outs(%z0 : tensor<f32>) dimensions = [0, 1]
  return %loss : tensor<f32>
}
