// The Chrome trace and the metrics JSON.
// RUN: rm -f %t.trace.json %t.metrics.json
// RUN: pp-opt %s -pp-plan="schedule=gpipe num-microbatches=2" -pp-simulate="trace=%t.trace.json metrics=%t.metrics.json timeline=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace.json
// RUN: FileCheck %s --check-prefix=METRICS < %t.metrics.json
// RUN: python3 -c "import json,sys; t=json.load(open(sys.argv[1])); print(len([e for e in t['traceEvents'] if e.get('ph')=='X']))" %t.trace.json | FileCheck %s --check-prefix=COUNT

// REPORT: makespan: 6 us
// REPORT-NOT: Rank 0:

// TRACE: "traceEvents"
// TRACE-DAG: "name":"F0"
// TRACE-DAG: "name":"B1"
// TRACE-DAG: "ph":"X"

// METRICS-DAG: "num_ranks": 2
// METRICS-DAG: "num_microbatches": 2
// METRICS-DAG: "makespan_us": 6
// METRICS-DAG: "bubble_rate": 0.333333

// Two ranks, two micro-batches, F and B of each: 8 compute events.
// COUNT: 8

pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1) memory(stash = 8)
}
