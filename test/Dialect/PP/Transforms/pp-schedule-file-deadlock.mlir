// A compute_comms table must run to the end under blocking send/recv.
// RUN: pp-opt %s -verify-diagnostics -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/deadlock-comms.csv"

// expected-error @below {{deadlock-comms.csv', rank 0, step 0: deadlock under blocking send/recv: rank 0 waits at recv of gradient of stage 1 micro-batch 0 from rank 1}}
// expected-error @below {{deadlock-comms.csv', rank 1, step 0: deadlock under blocking send/recv: rank 1 waits at recv of activation of stage 0 micro-batch 0 from rank 0}}
pp.pipeline @p ranks(2) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
}
