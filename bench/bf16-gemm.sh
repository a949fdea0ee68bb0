#!/usr/bin/env bash
# bf16 GEMM on the CPU: oneDNN's dnnl_gemm_bf16bf16f32 (and its bf16 matmul
# primitive) against OpenBLAS's f32 cblas_sgemm and oneDNN's dnnl_sgemm on the
# GEMM shapes of the decoder layer (bench/bf16-gemm.cpp says what is timed).
# Builds bench/bf16-gemm.cpp on its own (no CMake, no project headers; needs
# libopenblas-dev and libdnnl-dev, scripts/install-deps.sh) into a temporary
# folder and prints the CPU and a Markdown table per thread count.
# Usage: bench/bf16-gemm.sh [THREADS...] (default: 1 2). One thread runs
# pinned to core 0, N threads to cores 0..N-1.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cxx=${CXX:-$(command -v clang++-22 || command -v g++)}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cxx" -O2 -std=c++17 -o "$tmp/bf16-gemm" "$root/bench/bf16-gemm.cpp" \
  -I/usr/include/x86_64-linux-gnu -ldnnl -lopenblas

model=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
flags=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' |
  grep -E '^(avx2|fma|avx512f|avx512_bf16|avx512_vnni|avx_vnni|amx_.*)$' |
  tr '\n' ' ')
echo "CPU: $model, $(nproc) cores; flags: ${flags:-none of them}"
echo "(looked for avx2 fma avx512f avx512_bf16 avx512_vnni avx_vnni amx_*)"
echo "Load: $(cut -d' ' -f1-3 /proc/loadavg)"

unset OPENBLAS_CORETYPE
[ $# -gt 0 ] || set -- 1 2
for t in "$@"; do
  echo
  OMP_NUM_THREADS=$t OPENBLAS_NUM_THREADS=$t OMP_PROC_BIND=false \
    taskset -c "0-$((t - 1))" "$tmp/bf16-gemm" "$t"
done
