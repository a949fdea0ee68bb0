// REQUIRES: shared-models
// The decoder layer from buddy-mlir (../shared/models/SOURCES.md) times each
// block with @rtclock and @record_timing and names it with an
// llvm.mlir.global string. After pp-strip-instrumentation and the TOSA
// conversion, no instrumentation is left, the layer's computation is all
// there, and every op is differentiable.

// RUN: pp-opt %shared_models/buddy-mlir__transformer_layer_tosa.mlir -pp-strip-instrumentation 2> %t.remarks \
// RUN:   | pp-opt --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize)" > %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: FileCheck %s --input-file=%t.remarks --check-prefix=REMARK
// RUN: pp-opt %t.mlir -pp-check-differentiable -o /dev/null

// Before stripping, the check names the timer calls and says what to do.
// RUN: not pp-opt %shared_models/buddy-mlir__transformer_layer_tosa.mlir -pp-check-differentiable -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE

// REMARK: remark: removed 36 calls (24 to @rtclock, 12 to @record_timing) and 24 operations that only fed them from @subgraph0
// REMARK: remark: erased 14 unused private symbols: @rtclock, @op_name_input_layernorm, @record_timing, @op_name_q_proj,

// CHECK-NOT: rtclock
// CHECK-NOT: record_timing
// CHECK-NOT: llvm.
// CHECK-LABEL: func.func @subgraph0(
// CHECK-SAME:    %arg12: tensor<1536x8960xf32>) -> tensor<1x40x1536xf32>
// The q, k, v, o, gate, up and down projections; QK^T and attention * V.
// CHECK-COUNT-3: linalg.matmul
// CHECK:         linalg.batch_matmul
// RMS norms (x^2, rsqrt), the softmax (exp), SiLU (exp, in the sigmoid).
// CHECK:         math.exp
// CHECK:         linalg.batch_matmul
// CHECK-COUNT-4: linalg.matmul
// CHECK:         return %{{.*}} : tensor<1x40x1536xf32>
// CHECK-NOT: rtclock
// CHECK-NOT: record_timing
// CHECK-NOT: llvm.

// BEFORE: error: cannot differentiate 'func.call' to @rtclock: it has side effects (an external function without tensor results, such as a timer or a print); run pp-strip-instrumentation first
// BEFORE: error: cannot differentiate 'tosa.reduce_sum': TOSA is differentiated after lowering; run pp-prepare-model
// BEFORE: error: cannot differentiate 'func.call' to @record_timing: it has side effects
// BEFORE: error: cannot differentiate 'llvm.mlir.addressof': LLVM dialect ops are not differentiated; if it only feeds instrumentation (timers, prints), run pp-strip-instrumentation first
