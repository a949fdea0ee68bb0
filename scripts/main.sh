#!/usr/bin/env bash
# Sets everything up and runs the main job: installs the system packages,
# builds pp-mlir, then schedules the seed pipeline examples/p4-m16.mlir
# (P = 4 ranks, M = 16 micro-batches) with GPipe and with 1F1B, inserts and
# verifies the communication, and simulates both: per-rank figures, bubble
# rate, peak memory and the timeline. Pass another example and M to change it:
#   scripts/main.sh examples/p8-m64.mlir 64
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PP_BUILD_DIR:-$root/build}
example=${1:-$root/examples/p4-m16.mlir}
m=${2:-16}

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"

for schedule in gpipe 1f1b; do
  echo
  echo "\$ pp-opt $(basename "$example") --pp-plan=\"schedule=$schedule num-microbatches=$m\" --pp-simulate -o /dev/null"
  "$build/bin/pp-opt" "$example" \
    --pp-plan="schedule=$schedule num-microbatches=$m" --pp-simulate -o /dev/null
done
