// The SVG picture of a schedule with data-parallel all-reduces: each rank's
// all-reduces as purple bars in a strip under its row (the ring of
// --pp-allreduce-bandwidth and --pp-allreduce-latency, as in the Chrome
// trace), the subtitle with the step including them, a fifth legend
// swatch; a bucket's one interval is one bar naming its stages and bytes.
// RUN: pp-opt %s --pp-plan="schedule=interleaved-1f1b num-microbatches=4" --pp-insert-allreduce="replicas=4 gradient-bytes=1000000" -o %t.mlir
// RUN: pp-translate --export-svg --pp-allreduce-bandwidth=1e12 --pp-allreduce-latency=0.5 %t.mlir -o %t.svg
// RUN: FileCheck %s < %t.svg
// CHECK: makespan 27 µs (32 µs with the all-reduces), bubble rate 11.1111%, ideal time 24 µs</text>
// CHECK: fill="#8e44ad"><title>rank 0: all-reduce of stage 2 (1000000 bytes), 23–27.5 µs</title></rect>
// CHECK-NEXT: fill="#8e44ad"><title>rank 0: all-reduce of stage 0 (1000000 bytes), 27.5–32 µs</title></rect>
// CHECK: fill="#8e44ad"><title>rank 1: all-reduce of stage 3 (1000000 bytes), 21–25.5 µs</title></rect>
// CHECK-NEXT: fill="#8e44ad"><title>rank 1: all-reduce of stage 1 (1000000 bytes), 25.5–30 µs</title></rect>
// CHECK: font-size="12">all-reduce</text>

// 1 canvas + 2 rows + 5 swatches + 32 compute blocks + 4 all-reduces = 44;
// with each rank's two stages in one bucket, 2 all-reduce bars: 42.
// RUN: python3 -c "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); print(r.tag, sum(1 for e in r.iter() if e.tag.endswith('}rect')))" %t.svg | FileCheck %s --check-prefix=COUNT
// COUNT: {http://www.w3.org/2000/svg}svg 44
// RUN: pp-opt %s --pp-plan="schedule=interleaved-1f1b num-microbatches=4" --pp-insert-allreduce="replicas=4 gradient-bytes=1000000 bucket-bytes=10000000" | pp-translate --export-svg -o %t.bucket.svg
// RUN: python3 -c "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); print(r.tag, sum(1 for e in r.iter() if e.tag.endswith('}rect')))" %t.bucket.svg | FileCheck %s --check-prefix=BUCKET
// BUCKET: {http://www.w3.org/2000/svg}svg 42
// RUN: FileCheck %s --check-prefix=BUCKET-TITLE < %t.bucket.svg
// BUCKET-TITLE: <title>rank 0: all-reduce of stages 2, 0 (2000000 bytes), 27–357 µs</title>
// BUCKET-TITLE: <title>rank 1: all-reduce of stages 3, 1 (2000000 bytes), 25–355 µs</title>
// RUN: not pp-translate --export-svg --pp-allreduce-bandwidth=0 %t.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: --pp-allreduce-bandwidth must be > 0 and --pp-allreduce-latency >= 0, both finite

pp.pipeline @p ranks(2) activation_bytes(64) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 2, backward_weight = 0) memory(stash = 128, weight_stash = 0)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 2, backward_weight = 0) memory(stash = 128, weight_stash = 0)
  pp.stage 2 on rank 0 costs(forward = 1, backward_input = 2, backward_weight = 0) memory(stash = 128, weight_stash = 0)
  pp.stage 3 on rank 1 costs(forward = 1, backward_input = 2, backward_weight = 0) memory(stash = 128, weight_stash = 0)
}
