// B followed by W computes exactly what the fused backward computes: pp-exec
// compares @layer_bwd with @layer_bwd_split (B then W) bit for bit.
// RUN: pp-opt %pp_src_root/test/Model/Inputs/layer-bwd.mlir -pp-split-backward="function=layer_bwd input-gradients=1" -o %t.mlir
// RUN: pp-exec %t.mlir --entry=layer_bwd --compare=layer_bwd_split | FileCheck %s

// CHECK: result 0 (tensor<2x8xf32>): bitwise equal
// CHECK: result 1 (tensor<8x16xf32>): bitwise equal
// CHECK: compare: results bitwise equal
