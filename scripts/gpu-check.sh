#!/usr/bin/env bash
# Checks pp-mlir on a machine with NVIDIA GPUs, in a few minutes: builds
# pp-run, the CUDA plugin and pp-bench-gemm (scripts/build.sh, reusing
# build/ or $PP_BUILD_DIR), then trains each shared model
# (../shared/models, see its SOURCES.md for the licenses) with every
# schedule on the GPU with pp-run --check (loss and parameter gradients of
# step 1 against the unpipelined model on the CPU), and runs pp-bench-gemm.
#
# With one GPU (nvidia-smi -L), the ranks of a run (4 for the MNIST MLP, 2
# for the transformer layer) share it: --device=cuda --transport=inproc.
# With G >= 2 GPUs, a run is min(G, 4 or 2) processes, one per GPU, under
# mpirun: --device=cuda --transport=nccl (inproc on one GPU when mpirun is
# missing, with a note).
#
# Usage: scripts/gpu-check.sh [options]
#   --dry-run          print the commands, build and run nothing (works
#                      without a GPU; planned for 1 GPU unless --gpus)
#   --gpus=N           take N GPUs instead of counting them (nvidia-smi -L)
#   --no-build         use the build directory as it is
#   --models=LIST      mnist,transformer (default both)
#   --schedules=LIST   default gpipe,1f1b,interleaved-1f1b,zb-h1,zb-h2,zb-v,
#                      dualpipe-v
#   --steps=N          training steps per run (default 2)
#   --skip-bench       do not run pp-bench-gemm
#   --data-parallel=D  D replicas of each pipeline (default 1): D times the
#                      ranks, inproc on one GPU or D*P processes under
#                      mpirun (the replicas' all-reduce on NCCL there)
# Environment: PP_BUILD_DIR (default build/), PP_SHARED_MODELS (default
# ../shared/models beside the repository), OUT (the log directory; default
# gpu-check-logs/ in the repository).
#
# Output: one log per run (<model>-<schedule>.log, pp-bench-gemm.log) and
# summary.txt in the log directory; the summary table (one row per run:
# model, schedule, ranks, transport, result, max relative error of the
# gradients against the CPU, the last step's wall time, measured bubble
# rate, pp-simulate's bubble rate with the measured stage times, measured /
# predicted makespan) and pp-bench-gemm's table go to stdout too.
#
# Exit status: 0 every check passed; 1 a check FAILED, a run errored or
# timed out (each pp-run gets `timeout 120`), or the build failed; 2 bad
# usage; 3 no GPU found (nvidia-smi -L lists none): nothing to check.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PP_BUILD_DIR:-$root/build}
models_dir=${PP_SHARED_MODELS:-$root/../shared/models}
logdir=${OUT:-$root/gpu-check-logs}

dry_run=0
gpus=""
do_build=1
models="mnist,transformer"
schedules="gpipe,1f1b,interleaved-1f1b,zb-h1,zb-h2,zb-v,dualpipe-v"
steps=2
replicas=1
bench=1

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'; }

for arg in "$@"; do
  case $arg in
    --dry-run) dry_run=1 ;;
    --gpus=*) gpus=${arg#*=} ;;
    --no-build) do_build=0 ;;
    --models=*) models=${arg#*=} ;;
    --schedules=*) schedules=${arg#*=} ;;
    --steps=*) steps=${arg#*=} ;;
    --skip-bench) bench=0 ;;
    --data-parallel=*) replicas=${arg#*=} ;;
    -h|--help) usage; exit 0 ;;
    *) echo "gpu-check: unknown argument '$arg' (see --help)" >&2; exit 2 ;;
  esac
done
if ! [[ $steps =~ ^[1-9][0-9]*$ ]] || { [ -n "$gpus" ] && ! [[ $gpus =~ ^[0-9]+$ ]]; }; then
  echo "gpu-check: --steps and --gpus take a positive integer" >&2
  exit 2
fi

# The GPUs. Without one there is nothing to check: exit 3 (not 0, so that a
# caller cannot take it for a pass), except in a dry run.
chip=""
if [ -z "$gpus" ]; then
  listing=""
  if command -v nvidia-smi >/dev/null 2>&1; then
    listing=$(nvidia-smi -L 2>/dev/null || true)
  fi
  gpus=$(printf '%s\n' "$listing" | grep -c '^GPU ' || true)
  if [ "$gpus" -eq 0 ]; then
    if [ "$dry_run" -eq 0 ]; then
      echo "gpu-check: no GPU found (nvidia-smi -L): nothing to check"
      exit 3
    fi
    echo "gpu-check: dry run: no GPU found (nvidia-smi -L); planning for 1"
    gpus=1
  else
    # compute_cap "9.0" -> --chip=sm_90 (pp-run's default is sm_90).
    cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null |
          head -n 1 | tr -d ' .' || true)
    if [[ $cap =~ ^[0-9]+$ ]]; then chip=sm_$cap; fi
  fi
fi
if [ "$gpus" -eq 0 ]; then
  echo "gpu-check: --gpus=0: nothing to check"
  exit 3
fi

multi=0
if [ "$gpus" -ge 2 ]; then
  if command -v mpirun >/dev/null 2>&1; then
    multi=1
  else
    echo "gpu-check: note: $gpus GPUs but no mpirun: every run uses one GPU (inproc)"
  fi
fi

show() {  # prints a command line, quoting only what needs it
  local a
  printf '+'
  for a in "$@"; do
    if [[ $a =~ ^[A-Za-z0-9_./=,:+@%-]+$ ]]; then printf ' %s' "$a"
    else printf ' %q' "$a"; fi
  done
  printf '\n'
}
run() {  # prints the command; runs it unless in a dry run
  show "$@"
  if [ "$dry_run" -eq 0 ]; then "$@"; fi
}

if [ "$dry_run" -eq 0 ]; then mkdir -p "$logdir"; fi
echo "gpu-check: $gpus GPU(s)${chip:+, $chip}; build $build; logs in $logdir"

# Build what the check needs.
if [ "$do_build" -eq 1 ]; then
  if ! run env PP_BUILD_DIR="$build" "$root/scripts/build.sh" \
      --target pp-run PPRuntimeCUDA pp-bench-gemm; then
    echo "gpu-check: the build failed" >&2
    exit 1
  fi
fi
pp_run=$build/bin/pp-run
bench_bin=$build/bin/pp-bench-gemm
if [ "$dry_run" -eq 0 ]; then
  for f in "$pp_run" "$build/lib/libPPRuntimeCUDA.so" "$bench_bin"; do
    if [ ! -e "$f" ]; then
      echo "gpu-check: $f is missing (no CUDA plugin? cmake finds CUDA," \
           "cuBLAS and NCCL through CUDAToolkit_ROOT / NCCL_ROOT; see" \
           "runtime/lib/cuda/CMakeLists.txt)" >&2
      exit 1
    fi
  done
fi

failures=0
rows=()
field() {  # field FILE SED-EXPRESSION: the first match of a line, or "-"
  local v
  v=$(sed -n -e "$2" "$1" | tail -n 1)
  printf '%s' "${v:--}"
}

if [ ! -d "$models_dir" ]; then
  echo "gpu-check: note: $models_dir not found: skipping the model runs" \
       "(set PP_SHARED_MODELS)"
  models=""
fi

IFS=, read -r -a model_list <<< "$models"
IFS=, read -r -a schedule_list <<< "$schedules"
for model in "${model_list[@]}"; do
  case $model in
    mnist)
      file=$models_dir/google_heir__mnist_mlp.mlir
      model_args=(--function=mnist "--parameters=0,1,2,3" --loss=cross-entropy)
      ranks=4 microbatches=8 ;;
    transformer)
      file=$models_dir/buddy-mlir__transformer_layer_tosa.mlir
      model_args=(--function=subgraph0 "--parameters=2,3,4,5,7,9,10,11,12"
                  --loss=mse --lr=0.1)
      ranks=2 microbatches=4 ;;
    *) echo "gpu-check: unknown model '$model' (mnist, transformer)" >&2
       exit 2 ;;
  esac
  for schedule in "${schedule_list[@]}"; do
    case $schedule in
      interleaved-1f1b|zb-v|dualpipe-v) per_rank=2 ;;
      *) per_rank=1 ;;
    esac
    common=("${model_args[@]}" --stages-per-rank="$per_rank"
            --microbatches="$microbatches" --schedule="$schedule"
            --steps="$steps" --check --device=cuda ${chip:+--chip=$chip})
    [ "$replicas" -gt 1 ] && common+=(--data-parallel="$replicas")
    if [ "$multi" -eq 1 ]; then
      # One GPU per process: P * D processes on the G GPUs.
      p=$(( gpus / replicas < ranks ? gpus / replicas : ranks ))
      transport=nccl
      cmd=(timeout -k 10 120 mpirun -np "$((p * replicas))" --allow-run-as-root --oversubscribe
           "$pp_run" "$file" --ranks="$p" "${common[@]}" --transport=nccl)
    else
      p=$ranks
      transport=inproc
      cmd=(timeout -k 10 120 "$pp_run" "$file" --ranks="$p" "${common[@]}"
           --transport=inproc)
    fi
    log=$logdir/$model-$schedule.log
    if [ "$dry_run" -eq 1 ]; then
      run "${cmd[@]}"
      continue
    fi
    echo "gpu-check: $model, $schedule, $p ranks ($transport) ..."
    start=$SECONDS
    show "${cmd[@]}" > "$log"
    if "${cmd[@]}" >> "$log" 2>&1; then rc=0; else rc=$?; fi
    if grep -q '^check PASSED' "$log" && [ "$rc" -eq 0 ]; then
      result=PASS
    elif grep -q '^check FAILED' "$log"; then
      result=FAIL
    elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
      result=TIMEOUT
    elif [ "$rc" -ne 0 ]; then
      result="ERROR($rc)"
    else
      result="NO-CHECK"  # exit 0 but no check line: count as a failure
    fi
    [ "$result" = PASS ] || failures=$((failures + 1))
    grads=$(field "$log" 's/^check (step 1.*parameter gradients: \(max relative error \)\{0,1\}//p')
    step_ms=$(field "$log" 's/^step [0-9]*: loss [^,]*, \([0-9.]*\) ms,.*/\1/p')
    bubble=$(field "$log" 's/^makespan .* measured bubble rate \([0-9.]*\);.*/\1/p')
    predicted=$(field "$log" 's/.*pp-simulate with the measured stage times[^:]*: .* bubble rate \([0-9.]*\) .*/\1/p')
    ratio=$(field "$log" 's/.*(ratio measured \/ predicted makespan \([0-9.]*\)[;)].*/\1/p')
    rows+=("$(printf '%-11s %-16s %5s %-9s %-10s %-20s %9s %8s %10s %7s' \
      "$model" "$schedule" "$p" "$transport" "$result" "$grads" "$step_ms" \
      "$bubble" "$predicted" "$ratio")")
    echo "gpu-check:   $result in $((SECONDS - start)) s ($log)"
    if [ "$result" != PASS ]; then  # its errors, else its last lines
      { grep -i -m 3 'error\|FAILED' "$log" || tail -n 3 "$log"; } | sed 's/^/    | /'
    fi
  done
done

summary() {
  echo
  echo "gpu-check summary ($gpus GPU(s)${chip:+, $chip}; step ms: the last step's wall time;"
  echo "bubble: measured bubble rate of the last step; pp-simulate: its bubble rate with"
  echo "the measured stage times; ratio: measured / predicted makespan)"
  printf '%-11s %-16s %5s %-9s %-10s %-20s %9s %8s %10s %7s\n' model schedule \
    ranks transport result "grad max rel err" "step ms" bubble pp-simulate ratio
  local row
  for row in "${rows[@]}"; do echo "$row"; done
}
if [ "$dry_run" -eq 0 ] && [ "${#rows[@]}" -gt 0 ]; then
  summary | tee "$logdir/summary.txt"
fi

if [ "$bench" -eq 1 ]; then
  echo
  echo "gpu-check: pp-bench-gemm (cuBLAS directly vs pprt_gpu_gemm_f32)"
  if [ "$dry_run" -eq 1 ]; then
    run timeout -k 10 300 "$bench_bin"
  else
    if timeout -k 10 300 "$bench_bin" > "$logdir/pp-bench-gemm.log" 2>&1; then
      rc=0
    else
      rc=$?
      failures=$((failures + 1))
    fi
    cat "$logdir/pp-bench-gemm.log"
    [ "$rc" -eq 0 ] || echo "gpu-check: pp-bench-gemm exited with $rc"
  fi
fi

if [ "$dry_run" -eq 1 ]; then
  echo "gpu-check: dry run: nothing was built or run"
  exit 0
fi
echo
if [ "$failures" -gt 0 ]; then
  echo "gpu-check: FAILED: $failures failure(s); logs in $logdir"
  exit 1
fi
echo "gpu-check: PASSED; logs in $logdir"
