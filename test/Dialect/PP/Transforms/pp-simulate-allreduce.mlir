// RUN: pp-opt %s --pp-plan="schedule=interleaved-1f1b num-microbatches=4" --pp-insert-allreduce="replicas=4 gradient-bytes=1000000,1000000,1000000,1000000" --pp-simulate="allreduce-bandwidth=1e12 allreduce-latency=0.5 timeline=false report-file=-" -o /dev/null | FileCheck %s
// RUN: not pp-opt %s --pp-plan="schedule=interleaved-1f1b num-microbatches=4" --pp-insert-allreduce="replicas=2 gradient-bytes=8,8,8,8" --pp-simulate="allreduce-bandwidth=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BANDWIDTH
// RUN: not pp-opt %s --pp-plan="schedule=interleaved-1f1b num-microbatches=4" --pp-insert-allreduce="replicas=2 gradient-bytes=8,8,8,8" --pp-simulate="allreduce-latency=inf" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BANDWIDTH

// P = 2, V = 2 (interleaved 1F1B), D = 4: a ring all-reduce of 1 MB takes
// 2 (D-1)/D * 1e6 B / 1e12 B/s = 1.5 us plus 2 (D-1) * 0.5 us = 3 us, 4.5 us.
// Each rank's later chunk (stages 2, 3) finishes its backward first, so its
// all-reduce overlaps the rank's remaining work; the step is 32 us against
// 36 us with both all-reduces after the rank's last action (27 us without
// data parallelism).
// CHECK: makespan: 27 us
// CHECK: data parallel: 4 replicas, ring all-reduce at 1e+12 bytes/s, 0.5 us per message
// CHECK-NEXT: all-reduce of stage 2 on rank 0 (1000000 bytes): 23.000 - 27.500 us (at the end of the step: 27.000 - 31.500 us)
// CHECK-NEXT: all-reduce of stage 0 on rank 0 (1000000 bytes): 27.500 - 32.000 us (at the end of the step: 31.500 - 36.000 us)
// CHECK-NEXT: all-reduce of stage 3 on rank 1 (1000000 bytes): 21.000 - 25.500 us (at the end of the step: 25.000 - 29.500 us)
// CHECK-NEXT: all-reduce of stage 1 on rank 1 (1000000 bytes): 25.500 - 30.000 us (at the end of the step: 29.500 - 34.000 us)
// CHECK-NEXT: rank 0: all-reduces 9.000 us, done at 32.000 us (last action 27.000 us; at the end of the step: 36.000 us)
// CHECK-NEXT: rank 1: all-reduces 9.000 us, done at 30.000 us (last action 25.000 us; at the end of the step: 34.000 us)
// CHECK-NEXT: step 32.000 us with the all-reduces overlapped, 36.000 us reduced at the end (11.1% shorter); pipeline alone 27.000 us, all-reduce time of the busiest rank 9.000 us

// BANDWIDTH: error: 'allreduce-bandwidth' must be > 0 and 'allreduce-latency' >= 0, both finite

// The timeline draws each rank's all-reduces on a line under it (A<stage>,
// '=' for the rest), running past the pipeline's last action; metrics=FILE
// gives each rank's all-reduce time and end, and the step with them.
// RUN: pp-opt %s --pp-plan="schedule=interleaved-1f1b num-microbatches=4" --pp-insert-allreduce="replicas=4 gradient-bytes=1000000" --pp-simulate="allreduce-bandwidth=1e12 allreduce-latency=0.5 report-file=- metrics=%t.metrics.json" -o /dev/null | FileCheck %s --check-prefix=TIMELINE --match-full-lines
// TIMELINE:      Rank 0: 0F0 0F1 2F0 2F1 0F2 ___ 2B0 --- 0F3 2B1 --- 2F2 0B0 --- 2F3 0B1 --- ___ 2B2 --- ___ 2B3 --- 0B2 --- 0B3 ---
// TIMELINE-NEXT:   AR 0: ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ A2  === === === === A0  === === ===
// TIMELINE-NEXT: Rank 1: ___ 1F0 1F1 3F0 3B0 --- 3F1 3B1 --- 1F2 1B0 --- 1F3 1B1 --- 3F2 3B2 --- 3F3 3B3 --- 1B2 --- 1B3 ---
// TIMELINE-NEXT:   AR 1: ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ ___ A3  === === === === A1  === === ===
// RUN: FileCheck %s --check-prefix=METRICS < %t.metrics.json
// METRICS: "allreduce_time_us": 9,
// METRICS: "end_time_us": 27,
// METRICS-NEXT: "end_with_allreduces_us": 32,
// METRICS: "allreduce_time_us": 9,
// METRICS: "end_time_us": 25,
// METRICS-NEXT: "end_with_allreduces_us": 30,
// METRICS: "step_reduced_at_end_us": 36,
// METRICS-NEXT: "step_with_allreduces_us": 32

// pp-insert-allreduce{at-end}: the same all-reduces after each rank's last
// action, so the step is the one reduced at the end both ways (36 us).
// RUN: pp-opt %s --pp-plan="schedule=interleaved-1f1b num-microbatches=4" --pp-insert-allreduce="replicas=4 gradient-bytes=1000000 at-end" --pp-simulate="allreduce-bandwidth=1e12 allreduce-latency=0.5 timeline=false report-file=-" -o /dev/null | FileCheck %s --check-prefix=AT-END
// AT-END: all-reduce of stage 2 on rank 0 (1000000 bytes): 27.000 - 31.500 us (at the end of the step: 27.000 - 31.500 us)
// AT-END-NEXT: all-reduce of stage 0 on rank 0 (1000000 bytes): 31.500 - 36.000 us (at the end of the step: 31.500 - 36.000 us)
// AT-END: step 36.000 us with the all-reduces overlapped, 36.000 us reduced at the end (0.0% shorter)

// trace=FILE shows each all-reduce, overlapped as above, in a process of
// its own (pid 1, "all-reduces") with a row per rank and stage.
// RUN: pp-opt %s --pp-plan="schedule=interleaved-1f1b num-microbatches=4" --pp-insert-allreduce="replicas=4 gradient-bytes=1000000" --pp-simulate="allreduce-bandwidth=1e12 allreduce-latency=0.5 timeline=false trace=%t.json" -o /dev/null > /dev/null
// RUN: FileCheck %s --check-prefix=TRACE < %t.json
// TRACE-DAG: {"args":{"bytes":1000000,"rank":0,"stage":2},"cat":"allreduce","dur":4.5,"name":"ALLREDUCE_S2","ph":"X","pid":1,"tid":1,"ts":23}
// TRACE-DAG: {"args":{"bytes":1000000,"rank":0,"stage":0},"cat":"allreduce","dur":4.5,"name":"ALLREDUCE_S0","ph":"X","pid":1,"tid":0,"ts":27.5}
// TRACE-DAG: {"args":{"bytes":1000000,"rank":1,"stage":3},"cat":"allreduce","dur":4.5,"name":"ALLREDUCE_S3","ph":"X","pid":1,"tid":3,"ts":21}
// TRACE-DAG: {"args":{"bytes":1000000,"rank":1,"stage":1},"cat":"allreduce","dur":4.5,"name":"ALLREDUCE_S1","ph":"X","pid":1,"tid":2,"ts":25.5}
// TRACE-DAG: {"args":{"name":"all-reduces"},"name":"process_name","ph":"M","pid":1}
// TRACE-DAG: {"args":{"name":"rank 0, stage 2"},"name":"thread_name","ph":"M","pid":1,"tid":1}

pp.pipeline @p ranks(2) activation_bytes(64) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 2, backward_weight = 0) memory(stash = 128, weight_stash = 0)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 2, backward_weight = 0) memory(stash = 128, weight_stash = 0)
  pp.stage 2 on rank 0 costs(forward = 1, backward_input = 2, backward_weight = 0) memory(stash = 128, weight_stash = 0)
  pp.stage 3 on rank 1 costs(forward = 1, backward_input = 2, backward_weight = 0) memory(stash = 128, weight_stash = 0)
}
