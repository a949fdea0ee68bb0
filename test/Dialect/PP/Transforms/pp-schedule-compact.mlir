// pp-schedule{form=compact} builds the same schedule as form=ssa in one op:
// pp-expand-schedule turns it into exactly the SSA form, for every kind of
// schedule (fused and split backward, interleaving, V placement, F&B
// pairs), and the passes that read schedules give the same results on both.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for s in gpipe 1f1b zb-h1 zb-h2; do \
// RUN:   pp-opt %s -pp-plan="schedule=$s num-microbatches=5 form=compact" -pp-expand-schedule -mlir-print-debuginfo > %t/$s-compact.mlir && \
// RUN:   pp-opt %s -pp-plan="schedule=$s num-microbatches=5 form=ssa" -mlir-print-debuginfo > %t/$s-ssa.mlir && \
// RUN:   diff %t/$s-compact.mlir %t/$s-ssa.mlir || exit 1; done
// RUN: for s in interleaved-1f1b looped-bfs; do \
// RUN:   pp-opt %S/Inputs/two-stages-per-rank.mlir -pp-plan="schedule=$s num-microbatches=6 form=compact" -pp-expand-schedule -mlir-print-debuginfo > %t/$s-compact.mlir && \
// RUN:   pp-opt %S/Inputs/two-stages-per-rank.mlir -pp-plan="schedule=$s num-microbatches=6 form=ssa" -mlir-print-debuginfo > %t/$s-ssa.mlir && \
// RUN:   diff %t/$s-compact.mlir %t/$s-ssa.mlir || exit 1; done
// RUN: for s in zb-v dualpipe-v; do \
// RUN:   pp-opt %S/Inputs/two-stages-per-rank.mlir -pp-place-stages="placement=v" -pp-plan="schedule=$s num-microbatches=6 form=compact" -pp-expand-schedule -mlir-print-debuginfo > %t/$s-compact.mlir && \
// RUN:   pp-opt %S/Inputs/two-stages-per-rank.mlir -pp-place-stages="placement=v" -pp-plan="schedule=$s num-microbatches=6 form=ssa" -mlir-print-debuginfo > %t/$s-ssa.mlir && \
// RUN:   diff %t/$s-compact.mlir %t/$s-ssa.mlir || exit 1; done
// DualPipeV's F&B pairs are there (and so survive both forms).
// RUN: grep -c overlapped %t/dualpipe-v-ssa.mlir | FileCheck %s --check-prefix=PAIRS
// PAIRS-NOT: {{^0$}}
//
// The compact form is what form=compact printed.
// RUN: pp-opt %s -pp-plan="schedule=1f1b num-microbatches=2 form=compact" | FileCheck %s --check-prefix=COMPACT
// COMPACT:      pp.schedule @p_1f1b pipeline(@p) microbatches(2) compact
// COMPACT-NEXT: rank 0 [forward 0 0, send activation 0 0 to 1, forward 0 1, send activation 0 1 to 1, recv gradient 1 0 from 1, backward 0 0, recv gradient 1 1 from 1, backward 0 1]
// COMPACT-NEXT: rank 1 [recv activation 0 0 from 0, forward 1 0, recv activation 0 1 from 0, backward 1 0, send gradient 1 0 to 0, forward 1 1, backward 1 1, send gradient 1 1 to 0]
// COMPACT-NOT:  pp.forward
//
// pp-simulate and pp-verify-schedule read both forms alike.
// RUN: pp-opt %s -pp-plan="schedule=zb-h1 num-microbatches=5 form=compact" -pp-simulate -o /dev/null 2> %t/simulate-compact.txt
// RUN: pp-opt %s -pp-plan="schedule=zb-h1 num-microbatches=5 form=ssa" -pp-simulate -o /dev/null 2> %t/simulate-ssa.txt
// RUN: diff %t/simulate-compact.txt %t/simulate-ssa.txt
// RUN: FileCheck %s --check-prefix=SIMULATE --input-file=%t/simulate-compact.txt
// SIMULATE: makespan
//
// pp-insert-communication places the messages of a compute-only compact
// schedule and keeps it compact; the result is pp-plan's.
// RUN: pp-opt %s -pp-schedule="schedule=zb-h2 num-microbatches=5 form=compact" -pp-insert-communication > %t/insert.mlir
// RUN: FileCheck %s --check-prefix=INSERT --input-file=%t/insert.mlir
// INSERT: pp.schedule @p_zb_h2 pipeline(@p) microbatches(5) compact
// INSERT-NEXT: rank 0 [forward 0 0, send activation 0 0 to 1,
// RUN: pp-opt %t/insert.mlir -pp-expand-schedule > %t/insert-expanded.mlir
// RUN: pp-opt %t/zb-h2-ssa.mlir | diff %t/insert-expanded.mlir -
//
// pp-insert-allreduce lists the all-reduces of a compact schedule in it;
// expanded, it is what the pass makes of the SSA form, buckets included,
// and pp-simulate reports the same step.
// RUN: pp-opt %s -pp-plan="schedule=zb-h1 num-microbatches=3 form=compact" -pp-insert-allreduce="replicas=2 gradient-bytes=1000,3000" > %t/allreduce-compact.mlir
// RUN: FileCheck %s --check-prefix=ALLREDUCE --input-file=%t/allreduce-compact.mlir
// ALLREDUCE: pp.schedule @p_zb_h1 pipeline(@p) microbatches(3) compact
// ALLREDUCE-NEXT: rank 0 [{{.*}}, backward_weight 0 2, allreduce 0 replicas 2 bytes 1000]
// ALLREDUCE-NEXT: rank 1 [{{.*}}, backward_weight 1 2, allreduce 1 replicas 2 bytes 3000]
// RUN: pp-opt %s -pp-plan="schedule=zb-h1 num-microbatches=3 form=ssa" -pp-insert-allreduce="replicas=2 gradient-bytes=1000,3000" > %t/allreduce-ssa.mlir
// RUN: pp-opt %t/allreduce-compact.mlir -pp-expand-schedule | diff - %t/allreduce-ssa.mlir
// RUN: pp-opt %t/allreduce-compact.mlir -pp-simulate -o /dev/null 2> %t/allreduce-compact.txt
// RUN: pp-opt %t/allreduce-ssa.mlir -pp-simulate -o /dev/null 2> %t/allreduce-ssa.txt
// RUN: diff %t/allreduce-compact.txt %t/allreduce-ssa.txt
// RUN: pp-opt %S/Inputs/two-stages-per-rank.mlir -pp-plan="schedule=interleaved-1f1b num-microbatches=4 form=compact" -pp-insert-allreduce="replicas=3 gradient-bytes=100,200,300,400 bucket-bytes=1000" -pp-expand-schedule > %t/bucket-compact.mlir
// RUN: pp-opt %S/Inputs/two-stages-per-rank.mlir -pp-plan="schedule=interleaved-1f1b num-microbatches=4 form=ssa" -pp-insert-allreduce="replicas=3 gradient-bytes=100,200,300,400 bucket-bytes=1000" > %t/bucket-ssa.mlir
// RUN: diff %t/bucket-compact.mlir %t/bucket-ssa.mlir
// RUN: grep -c "bucket 0" %t/bucket-ssa.mlir | FileCheck %s --check-prefix=BUCKET
// BUCKET: 4
// Running the pass again replaces the list; with one replica it is empty.
// RUN: pp-opt %t/allreduce-compact.mlir -pp-insert-allreduce="replicas=4 gradient-bytes=10" | FileCheck %s --check-prefix=AGAIN
// AGAIN: rank 0 [{{.*}}, backward_weight 0 2, allreduce 0 replicas 4 bytes 10]
// AGAIN-NOT: replicas 2
// RUN: pp-opt %t/allreduce-compact.mlir -pp-insert-allreduce="replicas=1" | FileCheck %s --check-prefix=ONE-REPLICA
// ONE-REPLICA: pp.schedule @p_zb_h1 pipeline(@p) microbatches(3) compact
// ONE-REPLICA-NOT: allreduce
//
// form=auto (the default) is compact above 100 000 actions: 1F1B on two
// ranks has 8 actions per micro-batch (2 F, 2 B, a send and a recv each
// way), so 12 500 micro-batches are 100 000 actions and 12 501 are 100 008.
// RUN: pp-opt %s -pp-plan="schedule=1f1b num-microbatches=12500" -o %t/auto-below.mlir
// RUN: FileCheck %s --check-prefix=BELOW --input-file=%t/auto-below.mlir
// BELOW:      pp.schedule @p_1f1b pipeline(@p) microbatches(12500)
// BELOW-NEXT: rank 0 {
// RUN: pp-opt %s -pp-plan="schedule=1f1b num-microbatches=12501" -o %t/auto-above.mlir
// RUN: FileCheck %s --check-prefix=ABOVE --input-file=%t/auto-above.mlir
// ABOVE:      pp.schedule @p_1f1b pipeline(@p) microbatches(12501) compact
//
// RUN: not pp-opt %s -pp-schedule="schedule=1f1b num-microbatches=2 form=dense" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD-FORM
// RUN: not pp-opt %s -pp-plan="schedule=1f1b num-microbatches=2 form=dense" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD-FORM
// BAD-FORM: error: option 'form' must be ssa, compact or auto, not 'dense'
//
// pp-expand-schedule leaves SSA schedules alone.
// RUN: pp-opt %t/1f1b-ssa.mlir -pp-expand-schedule -mlir-print-debuginfo | diff - %t/1f1b-ssa.mlir

pp.pipeline @p ranks(2) activation_bytes(64) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 128, weight_stash = 64)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 128, weight_stash = 64)
}
