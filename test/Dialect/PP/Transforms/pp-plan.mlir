// The pp-plan pipeline: schedule, insert communication, verify.
// RUN: pp-opt %s -pp-plan="schedule=1f1b num-microbatches=2" | FileCheck %s
// RUN: pp-opt %s -pp-plan="schedule=1f1b num-microbatches=2" | pp-opt -pp-verify-schedule | FileCheck %s

// CHECK-LABEL: pp.schedule @p_1f1b pipeline(@p) microbatches(2)
// CHECK-NEXT:  rank 0 {
// CHECK-NEXT:    pp.forward stage 0 microbatch 0
// CHECK-NEXT:    pp.send activation stage 0 microbatch 0 to rank 1
// CHECK-NEXT:    pp.forward stage 0 microbatch 1
// CHECK-NEXT:    pp.send activation stage 0 microbatch 1 to rank 1
// CHECK-NEXT:    pp.recv gradient stage 1 microbatch 0 from rank 1
// CHECK-NEXT:    pp.backward stage 0 microbatch 0
// CHECK-NEXT:    pp.recv gradient stage 1 microbatch 1 from rank 1
// CHECK-NEXT:    pp.backward stage 0 microbatch 1
// CHECK-NEXT:  }
// CHECK-NEXT:  rank 1 {
// CHECK-NEXT:    pp.recv activation stage 0 microbatch 0 from rank 0
// CHECK-NEXT:    pp.forward stage 1 microbatch 0
// CHECK-NEXT:    pp.recv activation stage 0 microbatch 1 from rank 0
// CHECK-NEXT:    pp.backward stage 1 microbatch 0
// CHECK-NEXT:    pp.send gradient stage 1 microbatch 0 to rank 0
// CHECK-NEXT:    pp.forward stage 1 microbatch 1
// CHECK-NEXT:    pp.backward stage 1 microbatch 1
// CHECK-NEXT:    pp.send gradient stage 1 microbatch 1 to rank 0
// CHECK-NEXT:  }
pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1)
}
