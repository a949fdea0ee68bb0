// examples/resnet-small.mlir (examples/models/resnet.py: 15 convolutions as
// linalg.generic, batch norm in training form, residuals; the CNN of
// bench/compile.sh) goes through the model pipeline: prepared, partitioned
// into 2 stages, differentiated (F, B, W), planned and lowered into rank
// programs. (Compiling and training it takes about a minute: bench/.)
// RUN: pp-run --plan-costs=flops %examples/resnet-small.mlir --function=resnet_small --loss=cross-entropy --ranks=2 --microbatches=2 --schedule=1f1b --print-ir 2>&1 | FileCheck %s
// RUN: grep -c 'iterator_types = \["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"\]' %examples/resnet-small.mlir | FileCheck %s --check-prefix=CONVS
// RUN: FileCheck %s --check-prefix=MAPS --input-file=%examples/resnet-small.mlir

// CHECK: differentiating the stages (F, B, W)
// CHECK: func.func @resnet_small_loss_stage0_backward_weight(
// CHECK: func.func @resnet_small_loss_stage1_backward_weight(
// CHECK: func.func @resnet_small_loss_pipeline_1f1b_rank0(
// CHECK: func.func @resnet_small_loss_pipeline_1f1b_rank1(

// 15 convolutions as generics (NCHW image, FCHW filter: 4 parallel, 3
// reduction dimensions), the image read at a stride of 1 or 2.
// CONVS: 15
// MAPS-DAG: affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5, d3 + d6)>
// MAPS-DAG: affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 * 2 + d5, d3 * 2 + d6)>
