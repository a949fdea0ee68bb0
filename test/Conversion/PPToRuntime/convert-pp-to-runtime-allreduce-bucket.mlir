// A bucket of all-reduces (pp-insert-allreduce{bucket-bytes}): the three
// stages of the perceptron on one rank, in one collective. The calls of the
// stages that join it pass start 0, the last one starts it (start 1).
// RUN: pp-opt %examples/tanh-mlp3.mlir -pp-partition=function=mlp -pp-place-stages="placement=0,0,0 ranks=1" -pp-differentiate-stages --pp-plan="schedule=interleaved-1f1b num-microbatches=2" --pp-insert-allreduce="replicas=2 bucket-bytes=100000" -convert-pp-to-runtime -canonicalize 2>/dev/null | FileCheck %s
// A compact schedule holds the same all-reduces and lowers to the same
// rank programs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: pp-opt %examples/tanh-mlp3.mlir -pp-partition=function=mlp -pp-place-stages="placement=0,0,0 ranks=1" -pp-differentiate-stages --pp-plan="schedule=interleaved-1f1b num-microbatches=2 form=compact" --pp-insert-allreduce="replicas=2 bucket-bytes=100000" -convert-pp-to-runtime -canonicalize 2>/dev/null > %t/compact.mlir
// RUN: pp-opt %examples/tanh-mlp3.mlir -pp-partition=function=mlp -pp-place-stages="placement=0,0,0 ranks=1" -pp-differentiate-stages --pp-plan="schedule=interleaved-1f1b num-microbatches=2 form=ssa" --pp-insert-allreduce="replicas=2 bucket-bytes=100000" -convert-pp-to-runtime -canonicalize 2>/dev/null > %t/ssa.mlir
// RUN: diff %t/compact.mlir %t/ssa.mlir
// CHECK-DAG: %[[S0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[S1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[S2:.*]] = arith.constant 2 : i64
// CHECK: call @pprt_allreduce(%arg0, %[[S2]], %[[S0]]) : (!llvm.ptr, i64, i64) -> ()
// CHECK-NEXT: call @pprt_allreduce(%arg0, %[[S1]], %[[S0]]) : (!llvm.ptr, i64, i64) -> ()
// CHECK-NEXT: call @pprt_allreduce(%arg0, %[[S0]], %[[S1]]) : (!llvm.ptr, i64, i64) -> ()
// CHECK-NEXT: return
