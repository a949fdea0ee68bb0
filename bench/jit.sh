#!/usr/bin/env bash
# Throughput of pp-exec's JIT (docs/Execution.md) on one core: each function
# runs with `--no-blas` (GEMMs as generated, register-tiled and vectorized
# loops, the lowering before OpenBLAS) and as pp-exec lowers it by default
# (GEMMs on OpenBLAS through pprt_cpu_gemm_*), next to OpenBLAS alone on the
# same GEMM shapes (the GEMM calls the default lowering emits, timed by
# pp-exec on scratch operands): "of OpenBLAS" is the function's GFLOP/s over
# OpenBLAS's GFLOP/s on its GEMMs. GFLOP are counted as pp-partition counts
# them (linalg iteration space times body ops); times are the best of
# several runs. One thread everywhere (taskset -c 0, OPENBLAS_NUM_THREADS=1,
# OPENBLAS_CORETYPE unset). Prints a Markdown table. The shared models come
# from ../shared/models (PP_SHARED_MODELS to override); rows that need them
# are skipped without.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PP_BUILD_DIR:-$root/build}
models=${PP_SHARED_MODELS:-$root/../shared/models}
"$root/scripts/build.sh" --target pp-exec pp-opt > /dev/null
exec_=$build/bin/pp-exec
opt=$build/bin/pp-opt

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

unset OPENBLAS_CORETYPE
export OPENBLAS_NUM_THREADS=1

# Runs @$2 of $1 $3 times with extra flags $4; prints pp-exec's timing lines.
measure() {
  taskset -c 0 "$exec_" "$1" --entry="$2" --timing --repetitions="$3" $4 \
    2>&1 >/dev/null
}

# One table row: label, file, entry, repetitions without / with BLAS.
row() {
  local label=$1 file=$2 entry=$3 before=$4 after=$5 loops blas
  # A function without results (a first stage's backward_input) computes
  # nothing: pp-exec does not run it.
  loops=$(measure "$file" "$entry" "$before" --no-blas) || return 0
  blas=$(measure "$file" "$entry" "$after" "") || return 0
  python3 - "$label" "$loops" "$blas" <<'PY'
import re, sys
label, loops, blas = sys.argv[1:4]
run = re.compile(r"best of \d+ runs?: ([0-9.]+) ms, ([0-9.e+-]+) GFLOP,")
m0, m1 = run.search(loops), run.search(blas)
if not m0 or not m1:
    sys.exit(0)
t0, flop, t1 = float(m0.group(1)), float(m0.group(2)), float(m1.group(1))
g0, g1 = flop / (t0 / 1e3), flop / (t1 / 1e3)
gemm = re.search(r"OpenBLAS alone: ([0-9.]+) ms, ([0-9.e+-]+) GFLOP/s", blas)
ref = f"{float(gemm.group(2)):.1f} | {g1 / float(gemm.group(2)):.2f}" if gemm else "- | -"
print(f"| {label} | {flop:.4g} | {t0:.1f} | {g0:.2f} | {t1:.1f} | {g1:.2f} | {ref} |")
PY
}

echo "| function | GFLOP | loops (ms) | loops GFLOP/s | BLAS (ms) | BLAS GFLOP/s | OpenBLAS alone GFLOP/s | of OpenBLAS |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
row "matmul 512x784 by 784x512" "$root/bench/jit/matmul.mlir" matmul 3 10

# Convolutions (bench/jit/conv.mlir): "loops" is --no-blas (generated loops,
# as before pp-im2col), "BLAS" the default (im2col, one GEMM per image). The
# backward rows are the forward and one gradient (pp-autodiff wrt one
# argument): the input gradient (B) or the weight gradient (W).
"$opt" "$root/bench/jit/conv.mlir" --pp-append-loss="function=lenet_conv2 kind=mse" \
  --pp-append-loss="function=resnet_conv3x3 kind=mse" -o "$tmp/conv.mlir"
for conv in lenet_conv2 resnet_conv3x3; do
  row "$conv: F" "$tmp/conv.mlir" "$conv" 20 50
  "$opt" "$tmp/conv.mlir" "--pp-autodiff=function=${conv}_loss wrt=0" -o "$tmp/conv-b.mlir"
  row "$conv: F + B (input gradient)" "$tmp/conv-b.mlir" "${conv}_loss_grad" 10 50
  "$opt" "$tmp/conv.mlir" "--pp-autodiff=function=${conv}_loss wrt=1" -o "$tmp/conv-w.mlir"
  row "$conv: F + W (weight gradient)" "$tmp/conv-w.mlir" "${conv}_loss_grad" 10 50
done

if [ -f "$models/google_heir__mnist_mlp.mlir" ]; then
  sed '$d' "$models/google_heir__mnist_mlp.mlir" | cat - "$root/bench/jit/mnist-loss.mlir" \
    > "$tmp/mnist.in.mlir"
  "$opt" "$tmp/mnist.in.mlir" --pp-prepare-model --pp-autodiff=function=loss \
    -o "$tmp/mnist.mlir"
  row "MNIST MLP forward, batch 1 (shared model)" "$tmp/mnist.mlir" mnist 20 50
  row "MNIST MLP forward + backward (shared model)" "$tmp/mnist.mlir" loss_grad 20 50
fi

tf=$models/buddy-mlir__transformer_layer_tosa.mlir
if [ -f "$tf" ]; then
  params=2,3,4,5,7,9,10,11,12
  "$opt" "$tf" --pp-strip-instrumentation --pp-prepare-model \
    --pp-append-loss="function=subgraph0 kind=mse" -o "$tmp/tf.mlir" 2>/dev/null
  row "transformer layer forward (shared model)" "$tmp/tf.mlir" subgraph0 2 3
  "$opt" "$tmp/tf.mlir" --pp-autodiff="function=subgraph0_loss wrt=$params" \
    -o "$tmp/tf-grad.mlir" 2>/dev/null
  row "transformer layer forward + backward (shared model)" "$tmp/tf-grad.mlir" subgraph0_loss_grad 1 3
  # The stage functions of a 2-stage pipeline (pp-partition,
  # pp-differentiate-stages), as pp-run would run them.
  "$opt" "$tmp/tf.mlir" \
    -pp-partition="function=subgraph0_loss num-stages=2 parameters=$params" \
    -pp-differentiate-stages -o "$tmp/tf-stages.mlir" > /dev/null 2>&1
  for s in 0 1; do
    for kind in forward backward_input backward_weight; do
      row "transformer, 2 stages: stage $s $kind (shared model)" "$tmp/tf-stages.mlir" \
        "subgraph0_loss_stage${s}_$kind" 1 3
    done
  done
fi
