#!/usr/bin/env bash
# Compile time by phase (issue 6/8): pp-run on the project's models, one
# line each, from its progress lines: the model passes (prepare, partition,
# differentiate, plan, lower: the time until "compiling"), then the JIT's
# four phases, summed over the modules compiled in parallel ("compiled N
# modules ...: ..."), and the wall time until then; then the same run again
# with the JIT cache the first one filled (a fresh cache per invocation of
# this script): the wall time until compiled when nothing compiles.
# Plan costs are FLOP estimates (nothing is measured) and the run is one
# step without --check, so the reference is not compiled.
#
#   bench/compile.sh        (prints Markdown; ~4 minutes on 2 cores)
#
# The shared decoder layer is buddy-mlir's (../shared/models, Apache-2.0
# with LLVM exceptions; see ../shared/models/SOURCES.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
build=${PP_BUILD_DIR:-$root/build}
run=$build/bin/pp-run
models=$root/../shared/models
layer=$models/buddy-mlir__transformer_layer_tosa.mlir

row() { # LABEL pp-run arguments...
  local label=$1
  shift
  local out warm
  out=$("$run" --plan-costs=flops --steps=1 --jit-cache="$cache" "$@" 2>&1 >/dev/null) || {
    echo "| $label | failed | | | | | | |"
    return
  }
  warm=$("$run" --plan-costs=flops --steps=1 --jit-cache="$cache" "$@" 2>&1 >/dev/null) || {
    echo "| $label | failed (warm) | | | | | | |"
    return
  }
  PP_OUT=$out PP_WARM=$warm python3 - "$label" <<'PY'
import os, re, sys
text = os.environ["PP_OUT"]
label = sys.argv[1]
warm = re.search(r"\[([0-9.]+) s\] compiled [^:]*: ", os.environ["PP_WARM"])
model = re.search(r"\[([0-9.]+) s\] compiling", text)
jit = re.search(r"compiled [^:]*: MLIR lowering ([0-9.]+) s, LLVM IR ([0-9.]+) s, "
                r"LLVM optimization ([0-9.]+) s, code generation ([0-9.]+) s", text)
total = re.search(r"\[([0-9.]+) s\] compiled [^:]*:", text)
if not (model and jit and total and warm):
    print(f"| {label} | ? | | | | | | |")
else:
    print(f"| {label} | {model.group(1)} | " + " | ".join(jit.groups()) +
          f" | {total.group(1)} | {warm.group(1)} |")
PY
}

echo "| model, plan | model passes (s) | MLIR lowering | LLVM IR | LLVM optimization | code generation | until compiled (s) | warm JIT cache (s) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
row "tanh MLP, P=3, 1F1B, M=4" "$root/examples/tanh-mlp3.mlir" \
  --function=mlp --ranks=3 --microbatches=4 --schedule=1f1b
row "LeNet, P=2, 1F1B, M=2" "$root/examples/lenet.mlir" --function=lenet \
  --loss=cross-entropy --ranks=2 --microbatches=2 --schedule=1f1b
row "LeNet, P=2, V=2, ZB-V, M=8" "$root/examples/lenet.mlir" \
  --function=lenet --loss=cross-entropy --ranks=2 --stages-per-rank=2 \
  --microbatches=8 --schedule=zb-v
if [[ -f "$layer" ]]; then
  for m in 4 32; do
    row "decoder layer, P=4, 1F1B, M=$m" "$layer" --function=subgraph0 \
      --parameters=2,3,4,5,7,9,10,11,12 --loss=mse --ranks=4 \
      --microbatches=$m --schedule=1f1b
  done
fi
row "decoder (examples/decoder-long.mlir), P=2, 1F1B, M=4" \
  "$root/examples/decoder-long.mlir" --function=decoder_long --loss=mse --ranks=2 \
  --microbatches=4 --schedule=1f1b
# The examples' CNN (examples/resnet-small.mlir: 15 convolutions as
# linalg.generic, batch norm, residuals), the plans of issue 6/8.
row "small ResNet (examples/resnet-small.mlir), P=2, 1F1B, M=2" \
  "$root/examples/resnet-small.mlir" --function=resnet_small \
  --loss=cross-entropy --ranks=2 --microbatches=2 --schedule=1f1b
row "small ResNet, P=4, V=2, ZB-V, M=8" "$root/examples/resnet-small.mlir" \
  --function=resnet_small --loss=cross-entropy --ranks=4 --stages-per-rank=2 \
  --microbatches=8 --schedule=zb-v
