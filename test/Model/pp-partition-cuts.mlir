// pp-partition's option `cuts`: an explicit stage assignment, "cut after
// these ops that do work" (numbered from 0 in block order; fills and empties
// are recomputed where used and not numbered). The ops of Inputs/mlp3.mlir:
// 0 matmul, 1 relu, 2 matmul, 3 relu, 4 matmul. The report names the cuts,
// who chose them and every stage's ops; the pipeline records them.
// RUN: pp-opt %S/Inputs/mlp3.mlir -pp-partition="function=mlp cuts=0,3 report-file=-" | FileCheck %s
// RUN: pp-opt %S/Inputs/mlp3.mlir -pp-partition="function=mlp num-stages=3 cuts=0,3 print-report=false" | FileCheck %s --check-prefix=ATTR
//
// `cuts` wins over pp.split_point markers; a marker on an op that does no
// work (the fill before the second matmul) cuts after the last op before it
// that does (op 1).
// RUN: sed 's/%h1 = linalg.matmul ins/%h1 = linalg.matmul {pp.split_point} ins/' %S/Inputs/mlp3.mlir > %t.mlir
// RUN: pp-opt %t.mlir -pp-partition="function=mlp cuts=3 report-file=-" -o /dev/null | FileCheck %s --check-prefix=OVERRIDE
// RUN: sed 's/%f1 = linalg.fill ins/%f1 = linalg.fill {pp.split_point} ins/' %S/Inputs/mlp3.mlir > %t.fill.mlir
// RUN: pp-opt %t.fill.mlir -pp-partition="function=mlp report-file=-" -o /dev/null | FileCheck %s --check-prefix=FILL
// And the balanced cut says so:
// RUN: pp-opt %S/Inputs/mlp3.mlir -pp-partition="function=mlp num-stages=2 report-file=-" -o /dev/null | FileCheck %s --check-prefix=FLOPS

// CHECK:      pp-partition @mlp: 3 stages; cuts after ops 0, 3 (option cuts)
// CHECK-NEXT:   stage 0: 1 ops, 512 FLOP, {{.*}}, ops 0..0
// CHECK-NEXT:   stage 1: 3 ops, 1088 FLOP, {{.*}}, ops 1..3
// CHECK-NEXT:   stage 2: 1 ops, 256 FLOP, {{.*}}, ops 4..4
// CHECK-LABEL: func.func @mlp_stage0(
// CHECK-COUNT-1: linalg.matmul
// CHECK-NOT:     linalg.generic
// CHECK:         return

// ATTR: func.func @mlp_staged({{.*}} attributes {pp.cut_by = "option cuts", pp.cuts = array<i64: 0, 3>}

// OVERRIDE: pp-partition @mlp: 2 stages; cuts after ops 3 (option cuts)
// FILL: pp-partition @mlp: 2 stages; cuts after ops 1 (pp.split_point markers)
// FLOPS: pp-partition @mlp: 2 stages; cuts after ops {{[0-9]}} (balanced by FLOPs)
