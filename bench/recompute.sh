#!/usr/bin/env bash
# Activation recomputation on examples/decoder-long.mlir (P = 2, M = 4):
# for 1F1B, ZB-H1 and ZB-V (V = 2), the step with --recompute=none,
# selective, full and auto under a memory limit (default 1000000 bytes per
# rank): the largest stash peak of any rank (measured by the allocator,
# equal to the plan), the predicted step (pp-simulate with the measured
# stage times) and the measured one (the last step's makespan), inproc.
#
#   bench/recompute.sh [LIMIT_BYTES]
#
# Prints Markdown. A plan over the limit is marked; auto's line gives its
# per-stage choice. On a 2-core machine both ranks run at once, one core
# each.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${PP_BIN:-$root/build/bin}
limit=${1:-1000000}
steps=${STEPS:-4}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "| schedule | --recompute | largest stash peak (bytes) | within $limit | predicted step (ms) | measured step (ms) |"
echo "| --- | --- | ---: | --- | ---: | ---: |"
for schedule in 1f1b zb-h1 zb-v; do
  v=1
  [ "$schedule" = zb-v ] && v=2
  for r in none selective full auto; do
    f="$out/$schedule-$r.out"
    # Only auto plans under the limit; the others show their peak.
    limitOption=()
    [ "$r" = auto ] && limitOption=(--memory-limit="$limit")
    "$bin/pp-run" "$root/examples/decoder-long.mlir" --function=decoder_long \
      --loss=mse --plan-costs=flops --ranks=2 --stages-per-rank=$v \
      --microbatches=4 --schedule=$schedule --steps="$steps" \
      --recompute=$r "${limitOption[@]}" --quiet > "$f" 2>&1 || {
      echo "| $schedule | $r | - | no plan: $(grep -o 'error: .*' "$f" | head -1) | - | - |"
      continue
    }
    peak=$(grep -o "stash peak [0-9]*" "$f" | grep -o "[0-9]*" | sort -n | tail -1)
    fits=yes
    [ "$peak" -gt "$limit" ] && fits=NO
    predicted=$(grep -o "pp-simulate with the measured stage times: [0-9.]* ms" "$f" | grep -o "[0-9.]* ms" | grep -o "[0-9.]*")
    measured=$(grep -o "^makespan [0-9.]* ms" "$f" | grep -o "[0-9.]*" | head -1)
    name=$r
    if [ "$r" = auto ]; then
      name="auto ($(grep -o "^recompute: stage [0-9]* [a-z]*" "$f" | awk '{print $4}' | paste -sd, -))"
    fi
    echo "| $schedule | $name | $peak | $fits | $predicted | $measured |"
  done
done
