// pp.schedule -> the schedule table of torch.distributed.pipelining
// (schedules.py, PipelineScheduleMulti._dump_csv): one row per rank, one
// action per cell ("0F1": stage 0, forward, micro-batch 1).

// Compute-only schedules export as compute_only. Each action sits in the
// column of its step when every action takes one step and a value made at
// step t is used at step t + 1 on the next rank; empty cells are bubbles.
// RUN: pp-opt %s -pp-schedule="schedule=gpipe num-microbatches=2" | pp-translate --export-pp-csv | FileCheck %s --check-prefix=GPIPE --match-full-lines
// GPIPE:      0F0,0F1,,,0B1,0B0
// GPIPE-NEXT: ,1F0,1F1,1B1,1B0
// GPIPE-NOT:  {{.}}

// Without the alignment: just each rank's order.
// RUN: pp-opt %s -pp-schedule="schedule=gpipe num-microbatches=2" | pp-translate --export-pp-csv --pp-csv-packed | FileCheck %s --check-prefix=PACKED --match-full-lines
// PACKED:      0F0,0F1,0B1,0B0
// PACKED-NEXT: 1F0,1F1,1B1,1B0

// RUN: pp-opt %s -pp-schedule="schedule=1f1b num-microbatches=3" | pp-translate --export-pp-csv | FileCheck %s --check-prefix=ONEF --match-full-lines
// ONEF:      0F0,0F1,,0B0,0F2,0B1,,0B2
// ONEF-NEXT: ,1F0,1B0,1F1,1B1,1F2,1B2
// ONEF-NOT:  {{.}}

// A schedule with pp.send/pp.recv exports as compute_comms: SEND_F and
// SEND_B name the sending stage, RECV_F and RECV_B the receiving one.
// RUN: pp-opt %s -pp-plan="schedule=1f1b num-microbatches=3" | pp-translate --export-pp-csv | FileCheck %s --check-prefix=COMMS --match-full-lines
// A compact schedule is the same table.
// RUN: pp-opt %s -pp-plan="schedule=1f1b num-microbatches=3 form=compact" | pp-translate --export-pp-csv | FileCheck %s --check-prefix=COMMS --match-full-lines
// COMMS:      0F0,0SEND_F0,0F1,0SEND_F1,0RECV_B0,0B0,0F2,0SEND_F2,0RECV_B1,0B1,0RECV_B2,0B2
// COMMS-NEXT: 1RECV_F0,1F0,1RECV_F1,1B0,1SEND_B0,1F1,1B1,1RECV_F2,1SEND_B1,1F2,1B2,1SEND_B2
// COMMS-NOT:  {{.}}

// The same schedule as compute_only drops the communication.
// RUN: pp-opt %s -pp-plan="schedule=1f1b num-microbatches=3" | pp-translate --export-pp-csv --pp-csv-format=compute_only | FileCheck %s --check-prefix=ONEF --match-full-lines

// Python's csv.writer ends rows with \r\n; --pp-csv-crlf does too.
// RUN: pp-opt %s -pp-schedule="schedule=gpipe num-microbatches=1" | pp-translate --export-pp-csv --pp-csv-crlf | python3 -c "import sys; print(repr(sys.stdin.buffer.read()))" | FileCheck %s --check-prefix=CRLF
// CRLF: b'0F0,,,0B0\r\n,1F0,1B0\r\n'

// Split backward: I (backward for inputs) and W (backward for weights).
// RUN: pp-translate --import-pp-csv %S/Inputs/split-p2-m2.csv | pp-translate --export-pp-csv --pp-csv-packed | FileCheck %s --check-prefix=SPLIT --match-full-lines
// SPLIT:      0F0,0F1,0I0,0I1,0W0,0W1
// SPLIT-NEXT: 1F0,1I0,1F1,1I1,1W0,1W1

pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1) memory(stash = 8)
}
