// The staged model computes exactly what the original does: pp-exec runs
// @mlp and @mlp_staged (the stage functions called in order) on the same
// seeded inputs and compares the results bit for bit, for 1, 2 and 3 stages.
// RUN: pp-opt %pp_src_root/test/Model/Inputs/mlp3.mlir -pp-partition="function=mlp num-stages=1" -o %t1.mlir > /dev/null
// RUN: pp-exec %t1.mlir --entry=mlp --compare=mlp_staged | FileCheck %s
// RUN: pp-opt %pp_src_root/test/Model/Inputs/mlp3.mlir -pp-partition="function=mlp num-stages=2" -o %t2.mlir > /dev/null
// RUN: pp-exec %t2.mlir --entry=mlp --compare=mlp_staged --seed=7 | FileCheck %s
// RUN: pp-opt %pp_src_root/test/Model/Inputs/mlp3.mlir -pp-partition="function=mlp num-stages=3" -o %t3.mlir > /dev/null
// RUN: pp-exec %t3.mlir --entry=mlp --compare=mlp_staged --seed=11 | FileCheck %s

// CHECK: result 0 (tensor<2x4xf32>): bitwise equal
// CHECK: compare: results bitwise equal

