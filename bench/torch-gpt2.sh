#!/usr/bin/env bash
# A GPT-2 from transformers, pipelined: exports GPT2LMHeadModel at 4 layers,
# 256 wide, 4 heads, vocabulary 2048, 64 positions, random weights
# (integration_test/pp-run/Inputs/torch/models.py:gpt2; embedding and LM
# head tied), makes a dataset of token sequences from a small fixed grammar
# (bench/make-grammar.py), then trains it with pp-run: P = 4 1F1B and
# P = 2, V = 2 ZB-V, both with --check, AdamW. Prints each run's check
# lines, its first and last losses and its compile time.
#
#   bench/torch-gpt2.sh [STEPS]
#
# Needs the virtual environment of scripts/install-deps.sh --torch
# (.venv-torch). Takes about 10 minutes on 2 cores (compiling the rank
# programs: 2-3 minutes each run; FLOP-planned, so nothing is measured).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${PP_BIN:-$root/build/bin}
python=${PP_TORCH_PYTHON:-$root/.venv-torch/bin/python}
steps=${1:-30}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$python" "$root/python/pp_mlir/export.py" \
  "$root/integration_test/pp-run/Inputs/torch/models.py:gpt2" \
  --factory-args '{"n_layer": 4, "n_embd": 256, "n_head": 4, "vocab_size": 2048, "n_positions": 64}' \
  --input 2x64:i64 --target 128:i32 --weights-dir none -o "$out/gpt2.mlir" \
  > "$out/export.out" 2>&1
"$python" "$root/bench/make-grammar.py" "$out/ids.npy" "$out/labels.npy" \
  --samples 64 --batch 2 --tokens 64 --vocab 2048 --cycle 64
train() { # NAME [pp-run options]
  local name=$1
  shift
  "$bin/pp-run" --plan-costs=flops "$out/gpt2.mlir" --function=gpt2 \
    --loss=cross-entropy --microbatches=4 --steps="$steps" --check \
    --optimizer=adamw --lr=0.003 --dataset="$out/ids.npy,$out/labels.npy" \
    "$@" > "$out/$name.out" 2>&1
  echo "## $name"
  grep -E "^pp-run: @|^shared parameter|^check|^trained" "$out/$name.out"
}
train "P=4, 1F1B" --ranks=4 --schedule=1f1b
train "P=2, V=2, ZB-V" --ranks=2 --stages-per-rank=2 --schedule=zb-v
