// GEMMs run on OpenBLAS through the runtime (pprt_cpu_gemm_*); --timing
// also times the same GEMMs on OpenBLAS alone, the rate bench/jit.sh holds
// stage functions to. --no-blas keeps generated loops.
// RUN: pp-exec %pp_src_root/bench/jit/matmul.mlir --entry=matmul --timing 2>&1 >/dev/null | FileCheck %s
// CHECK: pp-exec: @matmul best of 1 run: {{[0-9.]+}} ms, 0.4113 GFLOP, {{[0-9.]+}} GFLOP/s
// CHECK: pp-exec: @matmul GEMMs: 1 call, 0.411 GFLOP; OpenBLAS alone: {{[0-9.]+}} ms, {{[0-9.]+}} GFLOP/s
// RUN: pp-exec %pp_src_root/bench/jit/matmul.mlir --entry=matmul --timing --no-blas 2>&1 >/dev/null | FileCheck %s --check-prefix=LOOPS
// LOOPS-NOT: GEMMs:
// The lowered module calls the runtime's GEMM.
// RUN: pp-exec %pp_src_root/bench/jit/matmul.mlir --entry=matmul --print-lowered 2>&1 >/dev/null | FileCheck %s --check-prefix=LOWERED
// LOWERED: llvm.call @pprt_cpu_gemm_f32(
// The two lowerings agree to float32 rounding (the outputs of both, compared
// element by element).
// RUN: pp-exec %pp_src_root/bench/jit/matmul.mlir --entry=matmul --outputs=%t.blas
// RUN: pp-exec %pp_src_root/bench/jit/matmul.mlir --entry=matmul --outputs=%t.loops --no-blas
// RUN: %python -c "import sys, struct; a = open(sys.argv[1], 'rb').read()[128:]; b = open(sys.argv[2], 'rb').read()[128:]; n = len(a) // 4; x = struct.unpack('%df' % n, a); y = struct.unpack('%df' % n, b); print('max abs difference below 1e-3:', max(abs(p - q) for p, q in zip(x, y)) < 1e-3)" %t.blas/matmul.result0.npy %t.loops/matmul.result0.npy | FileCheck %s --check-prefix=AGREE
// AGREE: max abs difference below 1e-3: True

// A transpose that feeds a GEMM folds into the GEMM (it reads the weight
// transposed): @project allocates no buffer for the transposed copy and
// makes one GEMM call; with --no-blas the copy is materialized. The two agree
// to float32 rounding.
// RUN: pp-exec %S/Inputs/transposed-weight.mlir --entry=project --print-lowered 2>&1 >/dev/null | FileCheck %s --check-prefix=FOLDED
// FOLDED-LABEL: llvm.func @project(
// FOLDED-NOT:   _mlir_memref_to_llvm_alloc
// FOLDED:       llvm.call @pprt_cpu_gemm_f32(
// FOLDED-NOT:   _mlir_memref_to_llvm_alloc
// FOLDED:       llvm.return
// RUN: pp-exec %S/Inputs/transposed-weight.mlir --entry=project --print-lowered --no-blas 2>&1 >/dev/null | FileCheck %s --check-prefix=COPIED
// COPIED-LABEL: llvm.func @project(
// COPIED:       llvm.call @_mlir_memref_to_llvm_alloc(
// RUN: pp-exec %S/Inputs/transposed-weight.mlir --entry=project --seed=3 --outputs=%t.tblas
// RUN: pp-exec %S/Inputs/transposed-weight.mlir --entry=project --seed=3 --outputs=%t.tloops --no-blas
// RUN: %python -c "import sys, struct; a = open(sys.argv[1], 'rb').read()[128:]; b = open(sys.argv[2], 'rb').read()[128:]; n = len(a) // 4; x = struct.unpack('%df' % n, a); y = struct.unpack('%df' % n, b); print('max abs difference below 1e-3:', max(abs(p - q) for p, q in zip(x, y)) < 1e-3)" %t.tblas/project.result0.npy %t.tloops/project.result0.npy | FileCheck %s --check-prefix=AGREE

// A transpose that consumes a GEMM's result folds into the GEMM's output map
// (a weight gradient computed as dW^T, then transposed into the weight's
// layout): @grad allocates no buffer for dW^T and makes one GEMM call, which
// writes dW; with --no-blas dW^T is materialized. The entry wrapper passes
// pp-exec's result buffer to @grad as its out parameter: no buffer and no
// copy there either. The two lowerings agree to float32 rounding.
// RUN: pp-exec %S/Inputs/transposed-result.mlir --entry=grad --print-lowered 2>&1 >/dev/null | FileCheck %s --check-prefix=RESULT
// RESULT-LABEL: llvm.func @grad(
// RESULT-NOT:   _mlir_memref_to_llvm_alloc
// RESULT:       llvm.call @pprt_cpu_gemm_f32(
// RESULT-NOT:   _mlir_memref_to_llvm_alloc
// RESULT:       llvm.return
// RESULT-LABEL: llvm.func @__pp_exec_grad(
// RESULT-NOT:   _mlir_memref_to_llvm_alloc
// RESULT:       llvm.call @grad(
// RESULT-NOT:   _mlir_memref_to_llvm_alloc
// RESULT:       llvm.return
// RUN: pp-exec %S/Inputs/transposed-result.mlir --entry=grad --print-lowered --no-blas 2>&1 >/dev/null | FileCheck %s --check-prefix=RESULT-COPIED
// RESULT-COPIED-LABEL: llvm.func @grad(
// RESULT-COPIED:       llvm.call @_mlir_memref_to_llvm_alloc(
// RUN: pp-exec %S/Inputs/transposed-result.mlir --entry=grad --seed=5 --outputs=%t.rblas
// RUN: pp-exec %S/Inputs/transposed-result.mlir --entry=grad --seed=5 --outputs=%t.rloops --no-blas
// RUN: %python -c "import sys, struct; a = open(sys.argv[1], 'rb').read()[128:]; b = open(sys.argv[2], 'rb').read()[128:]; n = len(a) // 4; x = struct.unpack('%df' % n, a); y = struct.unpack('%df' % n, b); print('max abs difference below 1e-3:', max(abs(p - q) for p, q in zip(x, y)) < 1e-3, n)" %t.rblas/grad.result0.npy %t.rloops/grad.result0.npy | FileCheck %s --check-prefix=RESULT-AGREE
// RESULT-AGREE: max abs difference below 1e-3: True 128
