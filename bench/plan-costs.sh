#!/usr/bin/env bash
# Balance of FLOP-balanced against measured plans (pp-run --plan-costs,
# docs/Runtime.md): trains the shared decoder layer at P=4 and
# examples/lenet.mlir at P=2 (and P=4) with both, --check on, and prints each
# run's plan lines, per-rank busy times and the busiest / least-busy ratio.
# The measured costs go to a cache in a temporary directory (measured afresh
# each time this script runs). Results and the machine: bench/README.md.
# Long (minutes for the decoder layer): not part of the test suite.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PP_BUILD_DIR:-$root/build}
models=${PP_SHARED_MODELS:-$root/../shared/models}
"$root/scripts/build.sh" --target pp-run > /dev/null
run=$build/bin/pp-run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# $1: label; the rest: pp-run arguments. Prints the lines that matter.
show() {
  local label=$1
  shift
  echo "### $label"
  echo '```'
  "$run" "$@" --quiet --cost-cache="$tmp/costs.txt" 2>&1 |
    grep -E '^(split ops|plan|measured|rank [0-9]+: busy|check|warning|pp-run: warning)' || true
  echo '```'
}

for costs in flops measured; do
  show "LeNet, P=2, 1f1b, M=8, --plan-costs=$costs" \
    "$root/examples/lenet.mlir" --function=lenet --loss=cross-entropy \
    --ranks=2 --microbatches=8 --schedule=1f1b --steps=3 --check \
    --plan-costs=$costs
  show "LeNet, P=4, 1f1b, M=8, --plan-costs=$costs" \
    "$root/examples/lenet.mlir" --function=lenet --loss=cross-entropy \
    --ranks=4 --microbatches=8 --schedule=1f1b --steps=3 --check \
    --plan-costs=$costs
done
layer=$models/buddy-mlir__transformer_layer_tosa.mlir
if [[ -f "$layer" ]]; then
  for costs in flops measured; do
    show "decoder layer, P=4, 1f1b, M=4, --plan-costs=$costs" "$layer" \
      --function=subgraph0 --parameters=2,3,4,5,7,9,10,11,12 --loss=mse \
      --ranks=4 --microbatches=4 --schedule=1f1b --steps=2 --lr=0.1 --check \
      --plan-costs=$costs
  done
else
  echo "($layer not found: the decoder layer rows are skipped)"
fi
