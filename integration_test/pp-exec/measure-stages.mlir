// pp-exec --measure-stages on the three-stage perceptron of
// pp-differentiate-stages: every stage function is timed and the medians
// become the stages' costs. Times vary from run to run, so only the
// structure is checked: every cost is there, the first stage's empty B is 0,
// every F is positive, and the result still schedules and simulates
// (ZB-H1 for split B and W, 1F1B for the fused backward).
// RUN: pp-opt %examples/tanh-mlp3.mlir -pp-partition=function=mlp -pp-differentiate-stages -o %t.mlir 2>/dev/null
// RUN: pp-exec %t.mlir --measure-stages --repetitions=3 -o %t.measured.mlir | FileCheck %s --check-prefix=TABLE
// RUN: FileCheck %s --input-file=%t.measured.mlir
// RUN: pp-opt %t.measured.mlir -pp-schedule="schedule=zb-h1 num-microbatches=4" -pp-simulate -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIM

// TABLE:      @mlp_pipeline: median of 3 runs after a warm-up, in microseconds
// TABLE-NEXT: stage  rank            F            B            W
// TABLE-NEXT:     0     0 {{ *[0-9]+\.[0-9][0-9][0-9]}} {{ *}}0.000 {{ *[0-9]+\.[0-9][0-9][0-9]}}{{$}}
// TABLE-NEXT:     1     1 {{ *[0-9]+\.[0-9][0-9][0-9]}} {{ *[0-9]+\.[0-9][0-9][0-9]}} {{ *[0-9]+\.[0-9][0-9][0-9]}}{{$}}
// TABLE-NEXT:     2     2 {{ *[0-9]+\.[0-9][0-9][0-9]}} {{ *[0-9]+\.[0-9][0-9][0-9]}} {{ *[0-9]+\.[0-9][0-9][0-9]}}{{$}}
// TABLE-NOT:  {{.}}

// CHECK-LABEL: pp.pipeline @mlp_pipeline
// CHECK-NEXT: pp.stage 0 on rank 0 forward @mlp_stage0_forward backward_input @mlp_stage0_backward_input backward_weight @mlp_stage0_backward_weight costs(forward = {{[1-9][0-9.e+-]*|0\.[0-9]+}}, backward_input = 0, backward_weight = {{[1-9][0-9.e+-]*|0\.[0-9]+}}) memory(stash = 96, weight_stash = 96)
// CHECK-NEXT: pp.stage 1 on rank 1 forward @mlp_stage1_forward backward_input @mlp_stage1_backward_input backward_weight @mlp_stage1_backward_weight costs(forward = {{[1-9][0-9.e+-]*|0\.[0-9]+}}, backward_input = {{[1-9][0-9.e+-]*|0\.[0-9]+}}, backward_weight = {{[1-9][0-9.e+-]*|0\.[0-9]+}}) memory(stash = 128, weight_stash = 128)
// CHECK-NEXT: pp.stage 2 on rank 2 forward @mlp_stage2_forward backward_input @mlp_stage2_backward_input backward_weight @mlp_stage2_backward_weight costs(forward = {{[1-9][0-9.e+-]*|0\.[0-9]+}}, backward_input = {{[1-9][0-9.e+-]*|0\.[0-9]+}}, backward_weight = {{[1-9][0-9.e+-]*|0\.[0-9]+}}) memory(stash = 88, weight_stash = 88)
// CHECK-NEXT: }

// SIM: schedule @mlp_pipeline_zb_h1 (pipeline @mlp_pipeline)
// SIM: makespan: {{[0-9.e+-]+}} us

// A fused backward is recorded as B, with W = 0. Without -o the module goes
// to stdout and the table to stderr.
// RUN: pp-opt %examples/tanh-mlp3.mlir -pp-partition=function=mlp -pp-differentiate-stages=split-backward=false -o %t.fused.mlir 2>/dev/null
// RUN: pp-exec %t.fused.mlir --measure-stages=mlp_pipeline --repetitions=2 2>%t.table >%t.fused.measured.mlir
// RUN: FileCheck %s --check-prefix=FUSED --input-file=%t.fused.measured.mlir
// RUN: FileCheck %s --check-prefix=FUSED-TABLE --input-file=%t.table
// RUN: pp-opt %t.fused.measured.mlir -pp-schedule="schedule=1f1b num-microbatches=4" -pp-simulate -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSED-SIM

// FUSED-LABEL: pp.pipeline @mlp_pipeline
// FUSED-NEXT: pp.stage 0 on rank 0 forward @mlp_stage0_forward backward @mlp_stage0_backward costs(forward = {{[1-9][0-9.e+-]*|0\.[0-9]+}}, backward_input = {{[1-9][0-9.e+-]*|0\.[0-9]+}}, backward_weight = 0)
// FUSED-NEXT: pp.stage 1 on rank 1 forward @mlp_stage1_forward backward @mlp_stage1_backward costs(forward = {{[1-9][0-9.e+-]*|0\.[0-9]+}}, backward_input = {{[1-9][0-9.e+-]*|0\.[0-9]+}}, backward_weight = 0)
// FUSED-NEXT: pp.stage 2 on rank 2 forward @mlp_stage2_forward backward @mlp_stage2_backward costs(forward = {{[1-9][0-9.e+-]*|0\.[0-9]+}}, backward_input = {{[1-9][0-9.e+-]*|0\.[0-9]+}}, backward_weight = 0)

// FUSED-TABLE:      @mlp_pipeline: median of 2 runs after a warm-up, in microseconds
// FUSED-TABLE-NEXT: stage  rank            F            B            W
// FUSED-TABLE-NEXT:     0     0 {{.*}} 0.000  (fused backward)
// FUSED-TABLE-NEXT:     1     1 {{.*}} 0.000  (fused backward)
// FUSED-TABLE-NEXT:     2     2 {{.*}} 0.000  (fused backward)

// FUSED-SIM: schedule @mlp_pipeline_1f1b (pipeline @mlp_pipeline)
// FUSED-SIM: makespan: {{[0-9.e+-]+}} us
