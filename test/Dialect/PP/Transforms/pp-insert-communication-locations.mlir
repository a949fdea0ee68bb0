// pp-insert-communication rebuilds the schedule with its messages: each
// compute action keeps its location, a send and a recv take the location
// of the action that makes their payload, and every value keeps its type
// (here f32 tensors, not the pipeline's default activation_bytes bytes).
// RUN: pp-opt %s -pp-insert-communication -mlir-print-debuginfo | FileCheck %s

// CHECK-LABEL: pp.schedule @s
// CHECK:       rank 0 {
// CHECK-NEXT:    pp.forward stage 0 microbatch 0 : () -> (tensor<2x3xf32>, !pp.stash<8>) loc(#[[F0:loc[0-9]*]])
// CHECK-NEXT:    pp.send activation stage 0 microbatch 0 to rank 1 ({{.*}}) : tensor<2x3xf32> loc(#[[F0]])
// CHECK-NEXT:    pp.recv gradient stage 1 microbatch 0 from rank 1 : tensor<2x3xf32> loc(#[[B1:loc[0-9]*]])
// CHECK-NEXT:    pp.backward stage 0 microbatch 0 ({{.*}}) : (tensor<2x3xf32>, !pp.stash<8>) -> () loc(#[[B0:loc[0-9]*]])
// CHECK:       rank 1 {
// CHECK-NEXT:    pp.recv activation stage 0 microbatch 0 from rank 0 : tensor<2x3xf32> loc(#[[F0]])
// CHECK-NEXT:    pp.forward stage 1 microbatch 0 ({{.*}}) : (tensor<2x3xf32>) -> !pp.stash<8> loc(#[[F1:loc[0-9]*]])
// CHECK-NEXT:    pp.backward stage 1 microbatch 0 ({{.*}}) : (!pp.stash<8>) -> tensor<2x3xf32> loc(#[[B1]])
// CHECK-NEXT:    pp.send gradient stage 1 microbatch 0 to rank 0 ({{.*}}) : tensor<2x3xf32> loc(#[[B1]])
// CHECK-DAG:   #[[F0]] = loc("forward 0")
// CHECK-DAG:   #[[B0]] = loc("backward 0")
// CHECK-DAG:   #[[F1]] = loc("forward 1")
// CHECK-DAG:   #[[B1]] = loc("backward 1")
pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1) memory(stash = 8)
}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %a, %s0 = pp.forward stage 0 microbatch 0 : () -> (tensor<2x3xf32>, !pp.stash<8>) loc("forward 0")
  pp.backward stage 0 microbatch 0 (%s0) : (!pp.stash<8>) -> () loc("backward 0")
}
rank 1 {
  %s1 = pp.forward stage 1 microbatch 0 : () -> !pp.stash<8> loc("forward 1")
  %g = pp.backward stage 1 microbatch 0 (%s1) : (!pp.stash<8>) -> tensor<2x3xf32> loc("backward 1")
}
