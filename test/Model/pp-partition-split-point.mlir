// An explicit pp.split_point ("cut after this op") replaces the search: the
// cut after the second matmul gives [512 + 32 + 1024 | 32 + 256].
// RUN: sed 's/%h1 = linalg.matmul ins/%h1 = linalg.matmul {pp.split_point} ins/' %S/Inputs/mlp3.mlir > %t.mlir
// RUN: pp-opt %t.mlir -pp-partition="function=mlp" -o /dev/null 2>&1 | FileCheck %s
// RUN: pp-opt %t.mlir -pp-partition="function=mlp num-stages=2" -o /dev/null 2>&1 | FileCheck %s

// CHECK:      pp-partition @mlp: 2 stages
// CHECK-NEXT:   stage 0: 3 ops, 1568 FLOP, parameters 1536 bytes, stash 384 bytes, sends 128 bytes
// CHECK-NEXT:   stage 1: 2 ops, 288 FLOP, parameters 256 bytes, stash 160 bytes, sends 0 bytes
