#!/usr/bin/env bash
# torchvision's ResNet-18, pipelined: exports it with random weights
# (integration_test/pp-run/Inputs/torch/models.py:resnet18, 10 classes,
# --train-mode: batch norm by each micro-batch's statistics), 2 images of
# 3x64x64 per micro-batch, and trains it with pp-run, --check, SGD, on the
# exporter's sample data (2 micro-batches): P = 2 1F1B M = 2; then P = 4
# 1F1B M = 4 on a seeded synthetic batch (the sample has 2 micro-batches).
# Each run twice with a fresh JIT cache (cold: compiled; warm: linked from
# the cache). Prints each run's check lines, losses and compile time, and
# PyTorch's first two losses, which pp-run's first two at P = 2 equal to
# float32 rounding (the second after an SGD step).
#
#   bench/torch-resnet.sh [STEPS]
#
# Needs the virtual environment of scripts/install-deps.sh --torch
# (.venv-torch). About 8 minutes on 2 cores (FLOP-planned, nothing
# measured; compiling: 1.5-2 minutes per cold run).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${PP_BIN:-$root/build/bin}
python=${PP_TORCH_PYTHON:-$root/.venv-torch/bin/python}
steps=${1:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Paths in the printed command are relative to $out.
(cd "$out" && "$python" "$root/python/pp_mlir/export.py" \
  "$root/integration_test/pp-run/Inputs/torch/models.py:resnet18" \
  --input 2x3x64x64 --target 2:i32 --train-mode -o resnet18.mlir \
  --sample-data data > export.out 2>&1)
grep "^PyTorch" "$out/export.out"
# The exporter's command, without its fixed options.
command=$(sed -n 's/^  pp-run //p' "$out/export.out" |
  sed 's/ --ranks=[0-9]* --microbatches=[0-9]* --schedule=[^ ]* --steps=[0-9]*//')
train() { # NAME CACHE [pp-run options]
  local name=$1 cache=$2
  shift 2
  # shellcheck disable=SC2086 # the exporter's options, one word each
  (cd "$out" && "$bin/pp-run" --plan-costs=flops $command --steps="$steps" \
    --jit-cache="$cache" "$@" > "$out/run.out" 2> "$out/run.err")
  echo "## $name"
  grep -E "^pp-run: @|^check|^step|^trained" "$out/run.out"
  grep -E "compiled [0-9]+ modules" "$out/run.err"
}
for cache in cold warm; do
  train "P=2 M=2, 1F1B, $cache JIT cache" "$out/cache-p2" --ranks=2 \
    --microbatches=2 --schedule=1f1b
done
# shellcheck disable=SC2001 # a regular expression, not a pattern
command=$(sed "s/ --inputs=[^ ]*//" <<<"$command")
for cache in cold warm; do
  train "P=4 M=4, 1F1B, synthetic data, $cache JIT cache" "$out/cache-p4" \
    --ranks=4 --microbatches=4 --schedule=1f1b
done
