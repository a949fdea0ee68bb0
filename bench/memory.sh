#!/usr/bin/env bash
# Measured activation memory against the plan on the shared decoder layer
# (buddy-mlir, Apache-2.0; ../shared/models/SOURCES.md): pp-run trains one
# step with --check at P=4, M=8 under GPipe, 1F1B, ZB-H1 and ZB-V (V=2) on
# the inproc transport and prints, per rank, pp-simulate's stash plan
# (pp-run's default --stash-accounting=convert) and the peaks the generated
# code's allocator measured (docs/Runtime.md, "Measured memory"; they are
# equal). Prints Markdown; about a minute per schedule on 2
# cores. Usage: bench/memory.sh [M] (default 8).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PP_BUILD_DIR:-$root/build}
models=${PP_SHARED_MODELS:-$root/../shared/models}
M=${1:-8}
"$root/scripts/build.sh" --target pp-run > /dev/null

model="$models/buddy-mlir__transformer_layer_tosa.mlir"
args=(--function=subgraph0 --parameters=2,3,4,5,7,9,10,11,12 --loss=mse
      --ranks=4 --microbatches="$M" --steps=1 --check --quiet)

echo "## Decoder layer, P=4, M=$M: measured peaks (allocator) against the plan"
echo
for s in gpipe:1 1f1b:1 zb-h1:1 zb-v:2; do
  schedule=${s%%:*} v=${s##*:}
  echo "### $schedule (V=$v)"
  echo
  echo '```'
  "$build/bin/pp-run" "$model" "${args[@]}" --schedule="$schedule" \
    --stages-per-rank="$v" |
    grep -E '^(check PASSED|check FAILED|rank [0-9]+: (busy|measured)|measured stash|warning|note)'
  echo '```'
  echo
done
