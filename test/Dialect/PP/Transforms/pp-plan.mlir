// The pp-plan pipeline: schedule, insert communication, verify.
// RUN: pp-opt %s -pp-plan="schedule=1f1b num-microbatches=2" | FileCheck %s
// RUN: pp-opt %s -pp-plan="schedule=1f1b num-microbatches=2" | pp-opt -pp-verify-schedule | FileCheck %s
//
// pp-plan places the messages in pp-schedule (its option communicate): the
// same IR as the three passes one after another, for every schedule kind
// (split backward, V placement, interleaving).
// RUN: rm -rf %t && mkdir -p %t
// RUN: pp-opt %s -pp-plan="schedule=1f1b num-microbatches=2" -mlir-print-debuginfo > %t/plan.mlir
// RUN: pp-opt %s -pp-schedule="schedule=1f1b num-microbatches=2" -pp-insert-communication -pp-verify-schedule -mlir-print-debuginfo > %t/passes.mlir
// RUN: diff %t/plan.mlir %t/passes.mlir
// RUN: pp-opt %S/Inputs/two-stages-per-rank.mlir -pp-place-stages="placement=v" -pp-plan="schedule=zb-v num-microbatches=4" -mlir-print-debuginfo > %t/plan-v.mlir
// RUN: pp-opt %S/Inputs/two-stages-per-rank.mlir -pp-place-stages="placement=v" -pp-schedule="schedule=zb-v num-microbatches=4" -pp-insert-communication -pp-verify-schedule -mlir-print-debuginfo > %t/passes-v.mlir
// RUN: diff %t/plan-v.mlir %t/passes-v.mlir
// RUN: pp-opt %S/Inputs/two-stages-per-rank.mlir -pp-plan="schedule=interleaved-1f1b num-microbatches=4" -mlir-print-debuginfo > %t/plan-i.mlir
// RUN: pp-opt %S/Inputs/two-stages-per-rank.mlir -pp-schedule="schedule=interleaved-1f1b num-microbatches=4" -pp-insert-communication -pp-verify-schedule -mlir-print-debuginfo > %t/passes-i.mlir
// RUN: diff %t/plan-i.mlir %t/passes-i.mlir
// RUN: grep -c "pp.send" %t/plan-v.mlir | FileCheck %s --check-prefix=SENDS
// SENDS-NOT: {{^0$}}

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
