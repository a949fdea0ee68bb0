// A schedule's data-parallel all-reduces export in compute_comms as
// PyTorch's REDUCE_GRAD of their stages, right after the action each
// follows (the stage's last backward here, where PyTorch's
// _add_reduce_grad puts it too); a bucket's members one cell each, after
// the bucket's last W. compute_only has compute actions only: PyTorch adds
// its REDUCE_GRAD itself when it loads one.
// RUN: pp-opt %s --pp-plan="schedule=interleaved-1f1b num-microbatches=4" --pp-insert-allreduce="replicas=4 gradient-bytes=1000000" | pp-translate --export-pp-csv --pp-csv-format=compute_comms > %t.csv
// RUN: FileCheck %s --check-prefix=COMMS --match-full-lines < %t.csv
// RUN: pp-opt %s --pp-plan="schedule=interleaved-1f1b num-microbatches=4" --pp-insert-allreduce="replicas=4 gradient-bytes=1000000" | pp-translate --export-pp-csv --pp-csv-format=compute_only | FileCheck %s --check-prefix=ONLY --match-full-lines
// RUN: pp-opt %s --pp-plan="schedule=interleaved-1f1b num-microbatches=4" --pp-insert-allreduce="replicas=4 gradient-bytes=1000000 bucket-bytes=10000000" | pp-translate --export-pp-csv --pp-csv-format=compute_comms | FileCheck %s --check-prefix=BUCKET --match-full-lines

// COMMS: 0F0,0SEND_F0,0F1,0SEND_F1,2RECV_F0,2F0,2SEND_F0,2RECV_F1,2F1,2SEND_F1,0F2,0SEND_F2,2RECV_B0,2B0,2SEND_B0,0F3,2RECV_B1,0SEND_F3,2B1,2RECV_F2,2SEND_B1,2F2,0RECV_B0,2SEND_F2,0B0,2RECV_F3,2F3,0RECV_B1,2SEND_F3,0B1,2RECV_B2,2B2,2SEND_B2,2RECV_B3,2B3,2REDUCE_GRAD,2SEND_B3,0RECV_B2,0B2,0RECV_B3,0B3,0REDUCE_GRAD
// COMMS-NEXT: 1RECV_F0,1F0,1RECV_F1,1SEND_F0,1F1,3RECV_F0,1SEND_F1,3F0,3RECV_F1,3B0,1RECV_F2,3SEND_B0,3F1,3B1,1RECV_B0,3SEND_B1,1RECV_F3,1F2,1SEND_F2,1B0,1RECV_B1,1SEND_B0,3RECV_F2,1F3,1SEND_F3,1B1,1SEND_B1,3RECV_F3,3F2,3B2,3SEND_B2,3F3,3B3,3REDUCE_GRAD,1RECV_B2,3SEND_B3,1B2,1RECV_B3,1SEND_B2,1B3,1REDUCE_GRAD,1SEND_B3

// ONLY: 0F0,0F1,2F0,2F1,0F2,2B0,0F3,2B1,2F2,0B0,2F3,0B1,,2B2,,2B3,0B2,0B3
// ONLY-NEXT: ,1F0,1F1,3F0,3B0,3F1,3B1,1F2,1B0,1F3,1B1,3F2,3B2,3F3,3B3,1B2,1B3

// BUCKET: {{.*}},2RECV_B3,2B3,2SEND_B3,0RECV_B2,0B2,0RECV_B3,0B3,2REDUCE_GRAD,0REDUCE_GRAD
// BUCKET-NEXT: {{.*}},3F3,3B3,1RECV_B2,3SEND_B3,1B2,1RECV_B3,1SEND_B2,1B3,3REDUCE_GRAD,1REDUCE_GRAD,1SEND_B3

// Importing refuses REDUCE_GRAD (a table does not say how many replicas or
// bytes); the same table without those cells, imported and given its
// all-reduces by pp-insert-allreduce, exports as the table above.
// RUN: sed -e 's/,[0-9]*REDUCE_GRAD//g' %t.csv > %t.plain.csv
// RUN: pp-translate --import-pp-csv %t.plain.csv | pp-opt --pp-insert-allreduce="replicas=4 gradient-bytes=1" | pp-translate --export-pp-csv --pp-csv-format=compute_comms > %t.again.csv
// RUN: diff %t.csv %t.again.csv

pp.pipeline @p ranks(2) activation_bytes(64) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 2, backward_weight = 0) memory(stash = 128, weight_stash = 0)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 2, backward_weight = 0) memory(stash = 128, weight_stash = 0)
  pp.stage 2 on rank 0 costs(forward = 1, backward_input = 2, backward_weight = 0) memory(stash = 128, weight_stash = 0)
  pp.stage 3 on rank 1 costs(forward = 1, backward_input = 2, backward_weight = 0) memory(stash = 128, weight_stash = 0)
}
