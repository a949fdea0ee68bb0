#!/usr/bin/env bash
# Convolutions on the CPU: oneDNN's convolution primitives (forward,
# backward data, backward weights) against im2col + OpenBLAS as the JIT runs
# them, on LeNet's, the small ResNet's and a ResNet-18 convolution
# (bench/conv-onednn.cpp says what is timed). Builds bench/conv-onednn.cpp
# on its own (no CMake, no project headers; needs libopenblas-dev and
# libdnnl-dev, scripts/install-deps.sh) into a temporary folder, pins it to
# core 0 with one thread, and prints the CPU, the load and a Markdown table.
# Usage: bench/conv-onednn.sh [REPETITIONS] (default 50; best of them).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cxx=${CXX:-$(command -v clang++-22 || command -v g++)}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cxx" -O2 -std=c++17 -o "$tmp/conv-onednn" "$root/bench/conv-onednn.cpp" \
  -I/usr/include/x86_64-linux-gnu -ldnnl -lopenblas

model=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo "CPU: $model, $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
unset OPENBLAS_CORETYPE
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 taskset -c 0 "$tmp/conv-onednn" "$@"
