// The timeline as an SVG picture: one row per rank, a block per F/B/W at
// its simulated time, labelled with the micro-batch; grey is idle.
// RUN: pp-opt %s -pp-plan="schedule=1f1b num-microbatches=4" | pp-translate --export-svg | FileCheck %s
// RUN: pp-opt %s -pp-plan="schedule=1f1b num-microbatches=4" | pp-translate --export-svg -o %t.svg

// Well-formed XML with 1 canvas + 2 row backgrounds + 4 legend swatches +
// 16 compute blocks (2 ranks x 4 micro-batches x F and B) = 23 rectangles.
// RUN: python3 -c "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); print(r.tag, sum(1 for e in r.iter() if e.tag.endswith('}rect')))" %t.svg | FileCheck %s --check-prefix=COUNT
// COUNT: {http://www.w3.org/2000/svg}svg 23

// Unit costs, P = 2, M = 4: makespan (M + P - 1) * 2 = 10, busy 8.
// CHECK:      <?xml version="1.0" encoding="UTF-8"?>
// CHECK-NEXT: <svg xmlns="http://www.w3.org/2000/svg" version="1.1"
// CHECK:      @p_1f1b: 2 ranks, 2 stages, 4 micro-batches</text>
// CHECK-NEXT: makespan 10 µs, bubble rate 20%, ideal time 8 µs</text>
// CHECK:      >Rank 0</text>
// CHECK-NEXT: <rect {{.*}} fill="#e6e6e6"/>
// CHECK-NEXT: <rect {{.*}} fill="#4e79a7" {{.*}}><title>rank 0: forward of stage 0 micro-batch 0, 0–1 µs</title></rect>
// CHECK-NEXT: <text {{.*}}>0</text>
// CHECK:      <title>rank 0: backward of stage 0 micro-batch 0, 3–4 µs</title>
// CHECK:      >Rank 1</text>
// CHECK:      >time (µs)</text>
// CHECK:      >F forward</text>
// CHECK:      >W backward for weights</text>
// CHECK:      </svg>

// Split backward (I teal, W orange), and a rank's second model chunk in a
// darker shade.
// RUN: pp-translate --import-pp-csv %S/Inputs/v-split-p2-m4.csv | pp-translate --export-svg | FileCheck %s --check-prefix=ZBV
// ZBV: @imported_file: 2 ranks, 4 stages, 4 micro-batches
// ZBV-DAG: fill="#76b7b2"
// ZBV-DAG: fill="#3f8a84"
// ZBV-DAG: fill="#f28e2b"
// ZBV-DAG: fill="#b9600c"
// ZBV: darker: a rank's 2nd, 4th, ... model chunk

// An overlapped F&B pair: F in the upper half of the row, B in the lower.
// RUN: pp-translate --import-pp-csv %S/Inputs/dualpipev-p2-m6.csv | pp-translate --export-svg | FileCheck %s --check-prefix=PAIR
// PAIR: height="13" fill="#4e79a7" {{.*}}<title>rank 0: forward of stage 0 micro-batch 3,
// PAIR-NEXT: <text
// PAIR-NEXT: height="13" fill="#367a2e" {{.*}}<title>rank 0: backward of stage 3 micro-batch 1,

pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1) memory(stash = 8)
}
