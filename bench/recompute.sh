#!/usr/bin/env bash
# Activation recomputation on examples/decoder-long.mlir (P = 2, M = 4):
# for 1F1B, ZB-H1 and ZB-V (V = 2), the step with --recompute=none,
# selective, full and auto under memory limits (default 1000000 and 200000
# bytes per rank): the largest stash peak of any rank (measured by the
# allocator, equal to the plan), the predicted step (pp-simulate with the
# measured stage times) and the measured one (the last step's makespan),
# inproc.
#
#   bench/recompute.sh [LIMIT_BYTES...]
#
# Prints Markdown; auto's lines give the limit and the per-stage choice.
# On a 2-core machine both ranks run at once, one core each: run it on an
# otherwise idle machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${PP_BIN:-$root/build/bin}
limits=("$@")
[ $# -eq 0 ] && limits=(1000000 200000)
steps=${STEPS:-4}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "| schedule | --recompute | largest stash peak (bytes) | predicted step (ms) | measured step (ms) |"
echo "| --- | --- | ---: | ---: | ---: |"
for schedule in 1f1b zb-h1 zb-v; do
  v=1
  [ "$schedule" = zb-v ] && v=2
  for r in none selective full "${limits[@]/#/auto@}"; do
    f="$out/$schedule-${r//[@:]/-}.out"
    # Only auto plans under a limit; the others show their peak.
    limitOption=()
    limit=
    if [[ "$r" == auto@* ]]; then
      limit=${r#auto@}
      r=auto
      limitOption=(--memory-limit="$limit")
    fi
    "$bin/pp-run" "$root/examples/decoder-long.mlir" --function=decoder_long \
      --loss=mse --plan-costs=flops --ranks=2 --stages-per-rank=$v \
      --microbatches=4 --schedule=$schedule --steps="$steps" \
      --recompute=$r "${limitOption[@]}" --quiet > "$f" 2>&1 || {
      echo "| $schedule | $r under $limit | no plan: $(grep -o 'error: .*' "$f" | tail -1 | cut -c8-) | - | - |"
      continue
    }
    peak=$(grep -o "stash peak [0-9]*" "$f" | grep -o "[0-9]*" | sort -n | tail -1)
    predicted=$(grep -o "pp-simulate with the measured stage times[^:]*: [0-9.]* ms" "$f" | grep -o "[0-9.]* ms" | grep -o "[0-9.]*")
    measured=$(grep -o "^makespan [0-9.]* ms" "$f" | grep -o "[0-9.]*" | head -1)
    name=$r
    if [ "$r" = auto ]; then
      name="auto under $limit: $(grep -o "^recompute: stage [0-9]* [a-z:0-9]*" "$f" | awk '{print $4}' | sed 's/:$//' | paste -sd, -)"
    fi
    echo "| $schedule | $name | $peak | $predicted | $measured |"
  done
done
