#!/usr/bin/env bash
# Data parallelism x pipeline: step time of P=2, D=1 against P=2, D=2 (the
# same micro-batches per replica) under MPI, the all-reduces' share of the
# step (from the Chrome trace), and the predicted step with the all-reduces
# overlapped after each stage's last W against reduced at the end.
#
#   bench/data-parallel.sh [MODEL.mlir FUNCTION PARAMETERS LOSS]
#
# Default: the MNIST MLP of ../shared/models (google/heir, Apache-2.0; see
# ../shared/models/SOURCES.md). Prints Markdown. Needs mpirun; on a 2-core
# machine D=2 runs 4 processes on 2 cores, so its step includes waiting for
# a core: say so next to any figure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${PP_BIN:-$root/build/bin}
model=${1:-$root/../shared/models/google_heir__mnist_mlp.mlir}
function=${2:-mnist}
parameters=${3:-0,1,2,3}
loss=${4:-cross-entropy}
steps=${STEPS:-8}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() { # D NAME [pp-run options]
  local d=$1 name=$2
  shift 2
  mpirun --allow-run-as-root --oversubscribe -np $((2 * d)) "$bin/pp-run" \
    --plan-costs=flops "$model" --function="$function" \
    --parameters="$parameters" --loss="$loss" --ranks=2 --data-parallel="$d" \
    --microbatches=4 --steps="$steps" --transport=mpi \
    --quiet --trace="$out/$name.json" "$@" > "$out/$name.out" 2>&1
}
run 1 d1 --schedule=zb-h1
run 2 d2 --schedule=zb-h1
run 2 d2v2 --schedule=interleaved-1f1b --stages-per-rank=2
step() { grep -o "^measured ([^)]*): step [0-9.]* ms" "$1" | grep -o "[0-9.]* ms" | head -1; }
share() { # the all-reduce intervals' total over the step's compute, from the trace
  python3 - "$1" <<'PY'
import json, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
ar = sum(e["dur"] for e in events if e.get("cat") == "allreduce")
compute = sum(e["dur"] for e in events if e.get("cat") in ("forward", "backward", "backward_input", "backward_weight"))
print("%.1f us of all-reduce over %.1f us of compute (all ranks)" % (ar, compute))
PY
}
echo "| run | step (median) | all-reduce in the last step's trace | prediction |"
echo "| --- | ---: | --- | --- |"
echo "| P=2, D=1, ZB-H1 (2 processes) | $(step "$out/d1.out") | - | - |"
echo "| P=2, D=2, ZB-H1 (4 processes) | $(step "$out/d2.out") | $(share "$out/d2.json") | $(grep -o "[0-9.]* ms overlapped.*reduced at the end" "$out/d2.out") |"
echo "| P=2, V=2, D=2, interleaved 1F1B (4 processes) | $(step "$out/d2v2.out") | $(share "$out/d2v2.json") | $(grep -o "[0-9.]* ms overlapped.*reduced at the end" "$out/d2v2.out") |"
