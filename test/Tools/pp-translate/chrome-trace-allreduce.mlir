// export-chrome-trace shows a schedule's all-reduces (pid 1, a row per rank and stage),
// under the ring of --pp-allreduce-bandwidth and --pp-allreduce-latency:
// the same trace, byte for byte, as pp-simulate's trace=FILE with the same
// ring (both forms of the schedule).
// RUN: rm -rf %t && mkdir -p %t
// RUN: pp-opt %s -pp-plan="schedule=interleaved-1f1b num-microbatches=4" -pp-insert-allreduce="replicas=4 gradient-bytes=1000000 bucket-bytes=3000000" -pp-simulate="allreduce-bandwidth=1e12 allreduce-latency=0.5 timeline=false trace=%t/simulate.json" -o %t/plan.mlir 2> /dev/null
// RUN: pp-translate --export-chrome-trace --pp-allreduce-bandwidth=1e12 --pp-allreduce-latency=0.5 %t/plan.mlir > %t/translate.json
// RUN: cmp %t/simulate.json %t/translate.json
// RUN: pp-opt %s -pp-plan="schedule=interleaved-1f1b num-microbatches=4 form=compact" -pp-insert-allreduce="replicas=4 gradient-bytes=1000000 bucket-bytes=3000000" | pp-translate --export-chrome-trace --pp-allreduce-bandwidth=1e12 --pp-allreduce-latency=0.5 > %t/compact.json
// RUN: cmp %t/simulate.json %t/compact.json
// RUN: FileCheck %s < %t/translate.json
// The two stages of each rank in one bucket: one collective, both events.
// CHECK-DAG: {"args":{"bytes":{{[0-9]+}},"rank":0,"stage":2},"cat":"allreduce",{{.*}}"name":"ALLREDUCE_S2","ph":"X","pid":1,
// CHECK-DAG: {"args":{"bytes":{{[0-9]+}},"rank":0,"stage":0},"cat":"allreduce",{{.*}}"name":"ALLREDUCE_S0","ph":"X","pid":1,
// CHECK-DAG: {"args":{"bytes":{{[0-9]+}},"rank":1,"stage":3},"cat":"allreduce",{{.*}}"name":"ALLREDUCE_S3","ph":"X","pid":1,
// CHECK-DAG: {"args":{"bytes":{{[0-9]+}},"rank":1,"stage":1},"cat":"allreduce",{{.*}}"name":"ALLREDUCE_S1","ph":"X","pid":1,
//
// RUN: not pp-translate --export-chrome-trace --pp-allreduce-bandwidth=0 %t/plan.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not pp-translate --export-chrome-trace --pp-allreduce-latency=inf %t/plan.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: --pp-allreduce-bandwidth must be > 0 and --pp-allreduce-latency >= 0, both finite

pp.pipeline @q ranks(2) activation_bytes(64) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 128, weight_stash = 64)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 128, weight_stash = 64)
  pp.stage 2 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 128, weight_stash = 64)
  pp.stage 3 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 128, weight_stash = 64)
}
