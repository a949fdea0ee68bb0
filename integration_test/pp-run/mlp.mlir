// pp-run end to end on the project's three-stage perceptron
// (examples/tanh-mlp3.mlir, MSE loss included):
// three ranks, 1F1B and ZB-H1, four micro-batches. The first step matches
// the unpipelined model bit for bit, the stash peaks the runtime accounts
// equal pp-simulate's predictions, and three steps of SGD lower the loss.
// RUN: pp-run --plan-costs=flops %examples/tanh-mlp3.mlir --function=mlp --ranks=3 --microbatches=4 --schedule=1f1b --steps=3 --check --trace=%t.1f1b.json | FileCheck %s --check-prefixes=CHECK,ONEF
// RUN: FileCheck %s --input-file=%t.1f1b.json --check-prefix=TRACE
// RUN: pp-run --plan-costs=flops %examples/tanh-mlp3.mlir --function=mlp --ranks=3 --microbatches=4 --schedule=zb-h1 --steps=3 --check | FileCheck %s --check-prefixes=CHECK,ZB
//
// Micro-batches from .npy files (M stacked on a leading axis) give the
// same bitwise check.
// RUN: %python %S/Inputs/make-npy.py %t.x.npy f4 4,2,4
// RUN: %python %S/Inputs/make-npy.py %t.t.npy f4 4,2,3
// RUN: pp-run --plan-costs=flops %examples/tanh-mlp3.mlir --function=mlp --ranks=3 --microbatches=4 --schedule=1f1b --steps=3 --check --inputs=%t.x.npy,%t.t.npy | FileCheck %s --check-prefixes=CHECK,ONEF

// ONEF: pp-run: @mlp on 3 ranks (inproc), 3 stages, 4 micro-batches, 1f1b; compiled in {{.*}} s
// ZB: pp-run: @mlp on 3 ranks (inproc), 3 stages, 4 micro-batches, zb-h1; compiled in {{.*}} s
// CHECK: step 1: loss {{.*}}
// CHECK-NEXT: check (step 1, against the unpipelined model): loss bitwise equal; 4 parameter gradients: bitwise equal
// CHECK-NEXT: check PASSED
// CHECK: step 3: loss
// CHECK: rank 0: busy {{.*}} ms, stash peak [[P0:[0-9]+]] bytes (pp-simulate: [[P0]])
// CHECK: rank 1: busy {{.*}} ms, stash peak [[P1:[0-9]+]] bytes (pp-simulate: [[P1]])
// CHECK: rank 2: busy {{.*}} ms, stash peak [[P2:[0-9]+]] bytes (pp-simulate: [[P2]])
// CHECK: trained 3 steps: the loss fell from

// The measured timeline: one event per action of every rank.
// TRACE: {"traceEvents": [
// TRACE-DAG: "name":"F0","ph":"X","pid":0,"tid":0
// TRACE-DAG: "name":"B3","ph":"X","pid":0,"tid":2
