#!/usr/bin/env bash
# Data parallelism x pipeline: step time of P=2, D=1 against P=2, D=2 (the
# same micro-batches per replica) under MPI, the all-reduces' share of the
# step (from the Chrome trace), the predicted step (the measured stage times
# on the cores the ranks share, and the ring model fitted by
# --calibrate-allreduce) with the all-reduces overlapped after each stage's
# last W against reduced at the end, the ratio measured / predicted, and a
# V = 2 run with each rank's two stages in one bucket
# (--allreduce-bucket-bytes), and the overlap's saving: the same V = 2 runs
# with every all-reduce at the end (--allreduce-at-end), measured against
# predicted.
#
#   bench/data-parallel.sh [MODEL.mlir FUNCTION PARAMETERS LOSS]
#
# Default: the MNIST MLP of ../shared/models (google/heir, Apache-2.0; see
# ../shared/models/SOURCES.md); LAYER=1 adds the shared decoder layer
# (buddy-mlir, Apache-2.0), P=2, D=2, ZB-H1, LAYER_STEPS (10) steps. Prints
# Markdown.
# Needs mpirun; on a 2-core machine D=2 runs 4 processes on 2 cores, which
# share them through pp-run's compute slots (docs/Runtime.md): say so next
# to any figure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${PP_BIN:-$root/build/bin}
models=$root/../shared/models
model=${1:-$models/google_heir__mnist_mlp.mlir}
function=${2:-mnist}
parameters=${3:-0,1,2,3}
loss=${4:-cross-entropy}
steps=${STEPS:-50}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() { # D NAME MODEL FUNCTION PARAMETERS LOSS [pp-run options]
  local d=$1 name=$2 m=$3 f=$4 p=$5 l=$6
  shift 6
  mpirun --allow-run-as-root --oversubscribe -np $((2 * d)) "$bin/pp-run" \
    --plan-costs=flops "$m" --function="$f" --parameters="$p" --loss="$l" \
    --ranks=2 --data-parallel="$d" --transport=mpi \
    $( ((d > 1)) && echo --calibrate-allreduce) \
    --trace="$out/$name.json" "$@" > "$out/$name.out" 2>&1
}
step() { grep -o "^measured ([^)]*): step [0-9.]* ms" "$1" | grep -o "[0-9.]* ms" | head -1; }
predicted() { grep -o "[0-9.]* ms overlapped.*reduced at the end\|[0-9.]* ms with every all-reduce after its rank's last action" "$1" || echo -; }
ratio() { # the last step's ratio; the median over steps 2..N
  local line
  line=$(grep -o "^data parallel: .*(ratio [0-9.]*[;)].*" "$1") || { echo "- | -"; return; }
  echo "$(grep -o "ratio [0-9.]*" <<< "$line" | grep -o "[0-9.]*$") | $(grep -o "steps 2-[0-9]*: [0-9.]*" <<< "$line" | grep -o "[0-9.]*$" || echo -)"
}
calibration() { # the fitted ring, or "no fit" when the timings were noise
  grep -q "all-reduce calibration" "$1" || { echo -; return; }
  # The fit alone: the processes of an MPI run share the output, and another
  # one's progress line can land inside the calibration line.
  grep -oE "[0-9.e+]+ bytes/s, [0-9.e+-]+ us per message" "$1" | head -1 |
    grep . || echo "no fit"
}
share() { # the all-reduce intervals' total over the step's compute, from the trace
  python3 - "$1" <<'PY'
import json, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
ar = sum(e["dur"] for e in events if e.get("cat") == "allreduce")
compute = sum(e["dur"] for e in events if e.get("cat") in ("forward", "backward", "backward_input", "backward_weight"))
print("%.1f us of all-reduce over %.1f us of compute (all ranks)" % (ar, compute))
PY
}
mnist=("$model" "$function" "$parameters" "$loss")
run 1 d1 "${mnist[@]}" --microbatches=4 --steps="$steps" --schedule=zb-h1
run 2 d2 "${mnist[@]}" --microbatches=4 --steps="$steps" --schedule=zb-h1
run 2 d2v2 "${mnist[@]}" --microbatches=4 --steps="$steps" \
  --schedule=interleaved-1f1b --stages-per-rank=2
run 2 d2v2b "${mnist[@]}" --microbatches=4 --steps="$steps" \
  --schedule=interleaved-1f1b --stages-per-rank=2 \
  --allreduce-bucket-bytes=1000000000
run 2 d2v2e "${mnist[@]}" --microbatches=4 --steps="$steps" \
  --schedule=interleaved-1f1b --stages-per-rank=2 --allreduce-at-end
layer=$models/buddy-mlir__transformer_layer_tosa.mlir
if [[ "${LAYER:-0}" == 1 && -f "$layer" ]]; then
  layer=("$layer" subgraph0 2,3,4,5,7,9,10,11,12 mse --microbatches=4
    --steps="${LAYER_STEPS:-10}")
  run 2 layer "${layer[@]}" --schedule=zb-h1
  # The overlap's saving: V = 2, each rank's later stage reduces while its
  # earlier one still computes, against every all-reduce at the end.
  run 2 layerv2 "${layer[@]}" --schedule=interleaved-1f1b --stages-per-rank=2
  run 2 layerv2e "${layer[@]}" --schedule=interleaved-1f1b \
    --stages-per-rank=2 --allreduce-at-end
fi
echo "| run | step (median) | all-reduce in the last step's trace | ring fitted | prediction | measured / predicted, last step | median over steps 2-N |"
echo "| --- | ---: | --- | --- | --- | ---: | ---: |"
row() { # LABEL NAME
  echo "| $1 | $(step "$out/$2.out") | $(share "$out/$2.json") | $(calibration "$out/$2.out") | $(predicted "$out/$2.out") | $(ratio "$out/$2.out") |"
}
echo "| P=2, D=1, ZB-H1 (2 processes) | $(step "$out/d1.out") | - | - | - | - | - |"
row "P=2, D=2, ZB-H1 (4 processes)" d2
row "P=2, V=2, D=2, interleaved 1F1B (4 processes)" d2v2
row "P=2, V=2, D=2, interleaved 1F1B, one bucket per rank (4 processes)" d2v2b
row "the same, every all-reduce at the end (--allreduce-at-end)" d2v2e
if [[ -f "$out/layer.out" ]]; then
  row "decoder layer, P=2, D=2, ZB-H1, ${LAYER_STEPS:-10} steps (4 processes)" layer
  row "decoder layer, P=2, V=2, D=2, interleaved 1F1B" layerv2
  row "the same, every all-reduce at the end (--allreduce-at-end)" layerv2e
fi
# The overlap's saving: measured (median steps) and predicted (the
# overlapped run's own line: reduced at the end against overlapped).
saving() { # LABEL OVERLAPPED AT-END
  python3 - "$1" "$(step "$out/$2.out")" "$(step "$out/$3.out")" \
    "$(predicted "$out/$2.out")" <<'PY'
import re, sys
label, overlapped, at_end, predicted = sys.argv[1:]
o, e = float(overlapped.split()[0]), float(at_end.split()[0])
p = re.findall(r"([0-9.]+) ms", predicted)
pred = "%.1f%%" % (100 * (1 - float(p[0]) / float(p[1]))) if len(p) == 2 else "-"
print("| %s | %s | %s | %.1f%% | %s |" % (label, overlapped, at_end, 100 * (1 - o / e), pred))
PY
}
echo
echo "| overlap's saving | step, overlapped | step, all-reduces at the end | measured saving | predicted saving |"
echo "| --- | ---: | ---: | ---: | ---: |"
saving "MNIST MLP, P=2, V=2, D=2, interleaved 1F1B" d2v2 d2v2e
if [[ -f "$out/layer.out" ]]; then
  saving "decoder layer, P=2, V=2, D=2, interleaved 1F1B" layerv2 layerv2e
fi
