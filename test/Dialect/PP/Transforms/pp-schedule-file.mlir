// pp-schedule{schedule=file:PATH} loads a schedule table
// (torch.distributed.pipelining's CSV, either format) for the pipeline,
// verifies it and builds it as @<pipeline>_file. M comes from the table.
// RUN: pp-opt %s -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/gpipe-p2-m2.csv pipeline=p" | FileCheck %s --check-prefix=GPIPE
// RUN: pp-opt %s -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/gpipe-p2-m2.csv num-microbatches=2 pipeline=p" | FileCheck %s --check-prefix=GPIPE
// GPIPE-LABEL: pp.schedule @p_file pipeline(@p) microbatches(2)
// GPIPE-NEXT:  rank 0 {
// GPIPE-NEXT:    %{{.+}}, %[[S0:.+]] = pp.forward stage 0 microbatch 0 : () -> (tensor<4xi8>, !pp.stash<8>)
// GPIPE-NEXT:    %{{.+}}, %[[S1:.+]] = pp.forward stage 0 microbatch 1 : () -> (tensor<4xi8>, !pp.stash<8>)
// GPIPE-NEXT:    pp.backward stage 0 microbatch 1 (%[[S1]]) : (!pp.stash<8>) -> ()
// GPIPE-NEXT:    pp.backward stage 0 microbatch 0 (%[[S0]]) : (!pp.stash<8>) -> ()
// GPIPE-NEXT:  }
// GPIPE-NEXT:  rank 1 {
// GPIPE-NEXT:    pp.forward stage 1 microbatch 0
// GPIPE-NEXT:    pp.forward stage 1 microbatch 1
// GPIPE-NEXT:    pp.backward stage 1 microbatch 1
// GPIPE-NEXT:    pp.backward stage 1 microbatch 0
// GPIPE-NEXT:  }

// A compute-only table goes on through the usual passes.
// RUN: pp-opt %s -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/gpipe-p2-m2.csv pipeline=p" -pp-insert-communication -pp-verify-schedule -pp-simulate="timeline=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIM
// SIM: schedule @p_file (pipeline @p)
// SIM: makespan: 6 us

// With communicate, a compute-only table gets the messages
// pp-insert-communication would give it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: pp-opt %s -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/gpipe-p2-m2.csv pipeline=p communicate" > %t/one-pass.mlir
// RUN: pp-opt %s -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/gpipe-p2-m2.csv pipeline=p" -pp-insert-communication > %t/two-passes.mlir
// RUN: diff %t/one-pass.mlir %t/two-passes.mlir
// RUN: FileCheck %s --check-prefix=SENT < %t/one-pass.mlir
// SENT: pp.send activation stage 0 microbatch 0 to rank 1

// A compute_comms table keeps its sends and receives (with communicate too).
// RUN: pp-opt %s -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/1f1b-p2-m3-comms.csv pipeline=p" -pp-verify-schedule | FileCheck %s --check-prefix=COMMS
// RUN: pp-opt %s -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/1f1b-p2-m3-comms.csv pipeline=p communicate" -pp-verify-schedule | FileCheck %s --check-prefix=COMMS
// COMMS-LABEL: pp.schedule @p_file pipeline(@p) microbatches(3)
// COMMS-NEXT:  rank 0 {
// COMMS-NEXT:    %[[A:.+]], %{{.+}} = pp.forward stage 0 microbatch 0
// COMMS-NEXT:    pp.send activation stage 0 microbatch 0 to rank 1 (%[[A]])

// A table with an empty row past the pipeline's ranks (a trailing line of
// empty cells) is the same schedule.
// RUN: pp-opt %s -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/gpipe-p2-m2-blank-row.csv pipeline=p" | FileCheck %s --check-prefix=GPIPE

// A pipeline with more ranks than the table has rows: the others idle.
// RUN: pp-opt %s -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/gpipe-p2-m2.csv pipeline=q" -pp-verify-schedule | FileCheck %s --check-prefix=IDLE
// IDLE-LABEL: pp.schedule @q_file pipeline(@q) microbatches(2)
// IDLE:        rank 2 {
// IDLE-NEXT:   }

// Two stages per rank in a V shape, split backward.
// RUN: pp-opt %s -pp-schedule="schedule=file:%pp_src_root/test/Tools/pp-translate/Inputs/v-split-p2-m4.csv pipeline=v" -pp-insert-communication -pp-verify-schedule -pp-simulate="timeline=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=VSHAPE
// VSHAPE: schedule @v_file (pipeline @v)
// VSHAPE: pipeline: 2 ranks, 4 stages, 4 micro-batches

pp.pipeline @p ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1) memory(stash = 8)
}

pp.pipeline @q ranks(3) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1) memory(stash = 8)
}

pp.pipeline @v ranks(2) activation_bytes(4) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 8, weight_stash = 4)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 8, weight_stash = 4)
  pp.stage 2 on rank 1 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 8, weight_stash = 4)
  pp.stage 3 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 8, weight_stash = 4)
}
