// RUN: pp-opt %s -split-input-file -verify-diagnostics -pp-simulate

// expected-error @below {{the module has no pp.schedule; run pp-schedule first}}
module {
  pp.pipeline @p ranks(1) {
    pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  }
}

// -----

pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
}
// expected-error @below {{schedule @s deadlocks; run pp-verify-schedule for the details}}
pp.schedule @s pipeline(@p) microbatches(1)
rank 0 {
  %g = pp.recv gradient stage 1 microbatch 0 from rank 1 : tensor<4xi8>
  %a, %s = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<0>)
  pp.send activation stage 0 microbatch 0 to rank 1 (%a) : tensor<4xi8>
  pp.backward stage 0 microbatch 0 (%g, %s) : (tensor<4xi8>, !pp.stash<0>) -> ()
}
rank 1 {
  %a = pp.recv activation stage 0 microbatch 0 from rank 0 : tensor<4xi8>
  %s = pp.forward stage 1 microbatch 0 (%a) : (tensor<4xi8>) -> !pp.stash<0>
  %g = pp.backward stage 1 microbatch 0 (%s) : (!pp.stash<0>) -> tensor<4xi8>
  pp.send gradient stage 1 microbatch 0 to rank 0 (%g) : tensor<4xi8>
}

