// A simulated Chrome trace (Trace Event Format; opens in Perfetto): one
// complete event per compute action, tid = rank, times in microseconds.
// RUN: pp-opt %s -pp-plan="schedule=gpipe num-microbatches=2" | pp-translate --export-chrome-trace | FileCheck %s
// RUN: pp-opt %s -pp-plan="schedule=gpipe num-microbatches=2 form=compact" | pp-translate --export-chrome-trace | FileCheck %s
// RUN: pp-opt %s -pp-plan="schedule=gpipe num-microbatches=2" | pp-translate --export-chrome-trace -o %t.json
// RUN: python3 -c "import json, sys; t = json.load(open(sys.argv[1])); print(len([e for e in t['traceEvents'] if e['ph'] == 'X']), max(e['ts'] + e['dur'] for e in t['traceEvents']))" %t.json | FileCheck %s --check-prefix=COUNT

// CHECK: {"traceEvents": [
// CHECK-DAG: "name":"F0"
// CHECK-DAG: "name":"B1"
// CHECK-DAG: "tid":1
// CHECK: ]}

// 2 ranks x 2 micro-batches x (F, B) = 8 events; GPipe's makespan is 6.
// COUNT: 8 6

// A table imported from CSV simulates under unit costs.
// RUN: pp-translate --import-pp-csv %S/Inputs/split-p2-m2.csv | pp-translate --export-chrome-trace | FileCheck %s --check-prefix=SPLIT
// SPLIT-DAG: "cat":"backward_input"
// SPLIT-DAG: "cat":"backward_weight"

pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1) memory(stash = 8)
}
