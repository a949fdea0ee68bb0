// RUN: pp-opt %s | pp-opt | FileCheck %s
// RUN: pp-opt %s --mlir-print-op-generic | pp-opt | FileCheck %s

// CHECK-LABEL: pp.pipeline @abstract ranks(2) latency(0.5) activation_bytes(16) {
// CHECK-NEXT:    pp.stage 0 on rank 0 costs(forward = 1.5, backward_input = 2, backward_weight = 1) memory(stash = 64, weight_stash = 32)
// CHECK-NEXT:    pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 0) memory(stash = 64, weight_stash = 0)
// CHECK-NEXT:  }
pp.pipeline @abstract ranks(2) latency(0.5) activation_bytes(16) {
  pp.stage 0 on rank 0 costs(forward = 1.5, backward_input = 2.0, backward_weight = 1) memory(stash = 64, weight_stash = 32)
  pp.stage 1 on rank 1 costs(backward_weight = 0, forward = 1, backward_input = 1) memory(stash = 64)
}

// A split-backward schedule with explicit communication.
// CHECK-LABEL: pp.schedule @split pipeline(@abstract) microbatches(1)
// CHECK-NEXT:  rank 0 {
// CHECK-NEXT:    %[[A:.+]], %[[S:.+]] = pp.forward stage 0 microbatch 0 : () -> (tensor<16xi8>, !pp.stash<64>)
// CHECK-NEXT:    pp.send activation stage 0 microbatch 0 to rank 1 (%[[A]]) : tensor<16xi8>
// CHECK-NEXT:    %[[G:.+]] = pp.recv gradient stage 1 microbatch 0 from rank 1 : tensor<16xi8>
// CHECK-NEXT:    %[[W:.+]] = pp.backward_input stage 0 microbatch 0 (%[[G]], %[[S]]) : (tensor<16xi8>, !pp.stash<64>) -> !pp.stash<32>
// CHECK-NEXT:    pp.backward_weight stage 0 microbatch 0 (%[[W]]) : !pp.stash<32>
// CHECK-NEXT:  }
// CHECK-NEXT:  rank 1 {
// CHECK-NEXT:    %[[R:.+]] = pp.recv activation stage 0 microbatch 0 from rank 0 : tensor<16xi8>
// CHECK-NEXT:    %[[S1:.+]] = pp.forward stage 1 microbatch 0 (%[[R]]) : (tensor<16xi8>) -> !pp.stash<64>
// CHECK-NEXT:    %[[G1:.+]] = pp.backward stage 1 microbatch 0 (%[[S1]]) : (!pp.stash<64>) -> tensor<16xi8>
// CHECK-NEXT:    pp.send gradient stage 1 microbatch 0 to rank 0 (%[[G1]]) : tensor<16xi8>
// CHECK-NEXT:  }
pp.schedule @split pipeline(@abstract) microbatches(1)
rank 0 {
  %a, %s = pp.forward stage 0 microbatch 0 : () -> (tensor<16xi8>, !pp.stash<64>)
  pp.send activation stage 0 microbatch 0 to rank 1 (%a) : tensor<16xi8>
  %g = pp.recv gradient stage 1 microbatch 0 from rank 1 : tensor<16xi8>
  %w = pp.backward_input stage 0 microbatch 0 (%g, %s) : (tensor<16xi8>, !pp.stash<64>) -> !pp.stash<32>
  pp.backward_weight stage 0 microbatch 0 (%w) : !pp.stash<32>
}
rank 1 {
  %a = pp.recv activation stage 0 microbatch 0 from rank 0 : tensor<16xi8>
  %s = pp.forward stage 1 microbatch 0 (%a) : (tensor<16xi8>) -> !pp.stash<64>
  %g = pp.backward stage 1 microbatch 0 (%s) : (!pp.stash<64>) -> tensor<16xi8>
  pp.send gradient stage 1 microbatch 0 to rank 0 (%g) : tensor<16xi8>
}

// A compute-only schedule: values that cross ranks have no operand yet.
// CHECK-LABEL: pp.schedule @compute_only pipeline(@abstract) microbatches(1)
// CHECK:         %{{.+}}, %[[S:.+]] = pp.forward stage 0 microbatch 0 : () -> (tensor<16xi8>, !pp.stash<64>)
// CHECK-NEXT:    %[[W:.+]] = pp.backward_input stage 0 microbatch 0 (%[[S]]) : (!pp.stash<64>) -> !pp.stash<32>
// CHECK:         %[[S1:.+]] = pp.forward stage 1 microbatch 0 : () -> !pp.stash<64>
pp.schedule @compute_only pipeline(@abstract) microbatches(1)
rank 0 {
  %a, %s = pp.forward stage 0 microbatch 0 : () -> (tensor<16xi8>, !pp.stash<64>)
  %w = pp.backward_input stage 0 microbatch 0 (%s) : (!pp.stash<64>) -> !pp.stash<32>
  pp.backward_weight stage 0 microbatch 0 (%w) : !pp.stash<32>
}
rank 1 {
  %s = pp.forward stage 1 microbatch 0 : () -> !pp.stash<64>
  %g = pp.backward stage 1 microbatch 0 (%s) : (!pp.stash<64>) -> tensor<16xi8>
}

// Concrete stages name their functions.
// CHECK-LABEL: pp.pipeline @concrete ranks(1) {
// CHECK-NEXT:    pp.stage 0 on rank 0 forward @f backward @b
// CHECK-NEXT:    pp.stage 1 on rank 0 forward @f backward_input @bi backward_weight @bw costs(forward = 2, backward_input = 2, backward_weight = 1)
pp.pipeline @concrete ranks(1) {
  pp.stage 0 on rank 0 forward @f backward @b
  pp.stage 1 on rank 0 forward @f backward_input @bi backward_weight @bw costs(forward = 2, backward_input = 2, backward_weight = 1)
}
func.func private @f()
func.func private @b()
func.func private @bi()
func.func private @bw()

// CHECK-LABEL: pp.pipeline @empty_rank ranks(2) {
pp.pipeline @empty_rank ranks(2) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
}
// CHECK-LABEL: pp.schedule @no_work_on_rank_1 pipeline(@empty_rank) microbatches(1)
// CHECK:       rank 1 {
// CHECK-NEXT:  }
pp.schedule @no_work_on_rank_1 pipeline(@empty_rank) microbatches(1)
rank 0 {
  %s = pp.forward stage 0 microbatch 0 : () -> !pp.stash<0>
  pp.backward stage 0 microbatch 0 (%s) : (!pp.stash<0>) -> ()
}
rank 1 {
}
