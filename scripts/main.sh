#!/usr/bin/env bash
# Sets everything up and runs the main job: installs the system packages,
# builds pp-mlir, then
#  1. schedules the seed pipeline examples/p4-m16.mlir (P = 4, M = 16) with
#     1F1B, verifies it and simulates it (per-rank figures, bubble, memory,
#     timeline);
#  2. trains a real model with pp-run: the shared MNIST MLP
#     (../shared/models, cross-entropy loss) on P = 4 ranks with ZB-H1 and
#     M = 8 micro-batches for 5 steps, checked bit for bit against the
#     unpipelined model, writing the measured timeline to mnist-zb-h1.json;
#     with no planning option pp-run measures F, B and W of every op and
#     balances them (--plan-costs=auto, the default), splitting the first
#     matmul (98.5% of the model) into pieces.
#     Without ../shared/models it trains the project's own example
#     examples/tanh-mlp3.mlir instead;
#  3. trains a balanced pipeline: the shared decoder layer on P = 4 ranks
#     with 1F1B, cut where the measured F, B and W of every op balance
#     (the default, --plan-costs=auto; cached in build/plan-costs.txt), its three
#     MLP projections (29% of the work each) split into pieces along their
#     output columns and their weights into one parameter per piece
#     (--split-ops=auto: kept when that plan is no slower), printing the
#     plan and each rank's predicted and measured utilisation (the plan
#     1.06-1.22x between the busiest and least-busy rank, the medians of
#     steps 2-4 about 1.2x, bench/README.md).
#     Without ../shared/models: examples/lenet.mlir on P = 2 (its conv2 is
#     72% of the time, so 3.3x at best);
#  4. trains examples/tanh-mlp3.mlir on a GPU (--device=cuda) when
#     nvidia-smi lists one, else on the emulated device (--device=cuda-emu:
#     the GPU compilation with the kernels as host loops; docs/GPU.md),
#     checked against the CPU.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PP_BUILD_DIR:-$root/build}

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"

echo
echo "\$ pp-opt examples/p4-m16.mlir --pp-plan=\"schedule=1f1b num-microbatches=16\" --pp-simulate -o /dev/null"
"$build/bin/pp-opt" "$root/examples/p4-m16.mlir" \
  --pp-plan="schedule=1f1b num-microbatches=16" --pp-simulate -o /dev/null

mnist="$root/../shared/models/google_heir__mnist_mlp.mlir"
echo
if [[ -f "$mnist" ]]; then
  echo "\$ pp-run ../shared/models/google_heir__mnist_mlp.mlir --function=mnist --parameters=0,1,2,3 --loss=cross-entropy --ranks=4 --microbatches=8 --schedule=zb-h1 --steps=5 --check --trace=build/mnist-zb-h1.json"
  "$build/bin/pp-run" "$mnist" --function=mnist --parameters=0,1,2,3 \
    --loss=cross-entropy --ranks=4 --microbatches=8 --schedule=zb-h1 \
    --steps=5 --check --trace="$build/mnist-zb-h1.json"
else
  echo "\$ pp-run examples/tanh-mlp3.mlir --function=mlp --ranks=3 --microbatches=4 --schedule=zb-h1 --steps=5 --check"
  "$build/bin/pp-run" "$root/examples/tanh-mlp3.mlir" --function=mlp \
    --ranks=3 --microbatches=4 --schedule=zb-h1 --steps=5 --check
fi

echo
layer="$root/../shared/models/buddy-mlir__transformer_layer_tosa.mlir"
if [[ -f "$layer" ]]; then
  echo "\$ pp-run ../shared/models/buddy-mlir__transformer_layer_tosa.mlir --function=subgraph0 --parameters=2,3,4,5,7,9,10,11,12 --loss=mse --ranks=4 --microbatches=4 --schedule=1f1b --steps=4 --lr=0.1 --check --cost-cache=build/plan-costs.txt"
  "$build/bin/pp-run" "$layer" --function=subgraph0 \
    --parameters=2,3,4,5,7,9,10,11,12 --loss=mse --ranks=4 --microbatches=4 \
    --schedule=1f1b --steps=4 --lr=0.1 --check \
    --cost-cache="$build/plan-costs.txt"
else
  echo "\$ pp-run examples/lenet.mlir --function=lenet --loss=cross-entropy --ranks=2 --microbatches=8 --schedule=1f1b --steps=5 --check --cost-cache=build/plan-costs.txt"
  "$build/bin/pp-run" "$root/examples/lenet.mlir" --function=lenet \
    --loss=cross-entropy --ranks=2 --microbatches=8 --schedule=1f1b --steps=5 \
    --check --cost-cache="$build/plan-costs.txt"
fi

echo
if command -v nvidia-smi > /dev/null 2>&1 && nvidia-smi -L 2> /dev/null | grep -q GPU; then
  device=cuda
else
  device=cuda-emu
  echo "(no GPU found by nvidia-smi -L: the GPU path runs on the emulated device)"
fi
echo "\$ pp-run examples/tanh-mlp3.mlir --function=mlp --ranks=3 --microbatches=4 --schedule=zb-h1 --steps=5 --device=$device --gpu-workspace-mib=16 --check"
"$build/bin/pp-run" "$root/examples/tanh-mlp3.mlir" --function=mlp \
  --ranks=3 --microbatches=4 --schedule=zb-h1 --steps=5 --device=$device \
  --gpu-workspace-mib=16 --check
