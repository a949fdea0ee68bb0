#!/usr/bin/env bash
# Runs the benchmarks and prints Markdown: the schedule tables, the schedule
# library's scaling, the zero-bubble paper's setups and auto's time and gap,
# and pp-opt's end-to-end time and peak memory for P = 64, V = 4 and growing
# M (pp-plan, then pp-simulate, with the bytecode written), in the compact
# and the SSA form of the schedule. One core is used.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PP_BUILD_DIR:-$root/build}
"$root/scripts/build.sh" --target pp-opt pp-bench-schedules > /dev/null

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "## Schedules on uniform and heterogeneous pipelines"
echo
taskset -c 0 "$build/bin/pp-bench-schedules" --tables

echo "## Schedule library, P=64, V=4 (interleaved 1F1B), one core"
echo
taskset -c 0 "$build/bin/pp-bench-schedules" --scaling
echo

echo "## The zero-bubble paper's setups: its greedy scheduler and auto, one core"
echo
taskset -c 0 "$build/bin/pp-bench-schedules" --paper
echo

echo "## auto: time and gap to the lower bound, one core"
echo
taskset -c 0 "$build/bin/pp-bench-schedules" --auto
echo

python3 - "$tmp/p64v4.mlir" <<'PY'
import sys
P, V = 64, 4
with open(sys.argv[1], "w") as f:
    f.write(f"pp.pipeline @big ranks({P}) latency(0.1) activation_bytes(1024) {{\n")
    for s in range(P * V):
        f.write(f"  pp.stage {s} on rank {s % P} costs(forward = 1, backward_input = 1, "
                "backward_weight = 0.5) memory(stash = 4096, weight_stash = 1024)\n")
    f.write("}\n")
PY

echo "## pp-opt end to end, P=64, V=4 (interleaved 1F1B), one core"
echo
echo "pp-plan, pp-simulate and the bytecode written, in the default form (compact"
echo "above 100 000 actions) and in the SSA form (form=ssa: one op per action)."
echo
echo "| M | actions | compact: wall (s) | peak RSS (MiB) | SSA: wall (s) | peak RSS (MiB) | SSA / compact |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for m in 128 256 512 1024; do
  row=""
  for form in auto ssa; do
    /usr/bin/time -f "%e %M" -o "$tmp/time" taskset -c 0 "$build/bin/pp-opt" "$tmp/p64v4.mlir" \
      --pp-plan="schedule=interleaved-1f1b num-microbatches=$m form=$form" --pp-simulate \
      --emit-bytecode -o "$tmp/out.mlirbc" 2> /dev/null
    read -r t rss < "$tmp/time"
    row="$row | $t | $((rss / 1024))"
    eval "t_$form=$t"
  done
  n=$(( 64 * 4 * m * 2 + 2 * 2 * (64 * 4 - 1) * m ))
  r=$(python3 -c "print(f'{$t_ssa / $t_auto:.1f}')")
  echo "| $m | $n$row | $r |"
done
echo
echo "Time per pass for M=1024, default form (-mlir-timing):"
echo '```'
taskset -c 0 "$build/bin/pp-opt" "$tmp/p64v4.mlir" \
  --pp-plan="schedule=interleaved-1f1b num-microbatches=1024" --pp-simulate --emit-bytecode \
  -o /dev/null -mlir-timing 2>&1 | sed -n '/Wall Time/,$p'
echo '```'
