// The pp dialect and passes loaded into upstream mlir-opt as a plugin.
// RUN: mlir-opt %s --load-dialect-plugin=%pp_libs/PPPlugin%shlibext --load-pass-plugin=%pp_libs/PPPlugin%shlibext --pass-pipeline="builtin.module(pp-schedule{schedule=gpipe num-microbatches=2},pp-insert-communication,pp-verify-schedule)" | FileCheck %s

// CHECK-LABEL: pp.schedule @p_gpipe pipeline(@p) microbatches(2)
// CHECK-NEXT:  rank 0 {
// CHECK-NEXT:    %[[A0:.+]], %[[S0:.+]] = pp.forward stage 0 microbatch 0 : () -> (tensor<8xi8>, !pp.stash<4>)
// CHECK-NEXT:    pp.send activation stage 0 microbatch 0 to rank 1 (%[[A0]]) : tensor<8xi8>
pp.pipeline @p ranks(2) activation_bytes(8) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 4)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1) memory(stash = 4)
}
