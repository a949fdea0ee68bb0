#!/usr/bin/env bash
# Runs pp-bench-runtime and prints Markdown: the runtime's overhead per
# action (stages do no work) and its fidelity against pp-simulate (stages
# take their model cost), on the inproc transport and, when mpirun is there
# and the runtime has the mpi transport, on mpi (one process per rank). See
# bench/README.md for the tables and how to read them.
#
# PP_BUILD_DIR: the build directory (default build/). PP_BENCH_QUICK=1 runs
# tiny sizes (a smoke test of the script).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PP_BUILD_DIR:-$root/build}
PP_BUILD_DIR=$build "$root/scripts/build.sh" --target pp-bench-runtime > /dev/null
bench=$build/bin/pp-bench-runtime

m_overhead=64 reps_overhead=10 m_fidelity=32 reps_fidelity=5
if [ "${PP_BENCH_QUICK:-0}" = 1 ]; then
  m_overhead=4 reps_overhead=1 m_fidelity=4 reps_fidelity=1
fi
mpi=""
if command -v mpirun > /dev/null &&
   grep -q 'PPRT_HAVE_MPI:INTERNAL=ON' "$build/CMakeCache.txt"; then
  mpi="mpirun --allow-run-as-root --oversubscribe"
fi

echo "Machine: $(nproc) cores ($(uname -m)), load average before:" \
  "$(cut -d' ' -f1-3 /proc/loadavg)"
echo

echo "## Runtime overhead per action (no work), M=$m_overhead, median of $reps_overhead steps"
echo
overhead=(--mode=overhead --microbatches=$m_overhead --repetitions=$reps_overhead
          --schedules=1f1b,zb-h1 --payload=64,1048576)
"$bench" "${overhead[@]}" --ranks=2,4
if [ -n "$mpi" ]; then
  for p in 2 4; do
    $mpi -np $p "$bench" "${overhead[@]}" --transport=mpi --ranks=$p | \
      { [ $p = 2 ] && cat || tail -n +3; }
  done
fi
echo

fidelity=(--mode=fidelity --microbatches=$m_fidelity --repetitions=$reps_fidelity
          --forward-us=1000 --backward-us=1000 --weight-us=500)
for variant in "uniform:1" "heterogeneous (last stage 1.5x):1.5"; do
  title=${variant%%:*} scale=${variant##*:}
  echo "## Fidelity against simulate(), $title, F=1000 B=1000 W=500 us, M=$m_fidelity, median of $reps_fidelity steps"
  echo
  header=1
  for wait in spin sleep; do
    "$bench" "${fidelity[@]}" --last-stage-scale=$scale --ranks=2 \
      --wait=$wait | tail -n +$header
    header=3
    if [ -n "$mpi" ]; then
      $mpi -np 2 "$bench" "${fidelity[@]}" --last-stage-scale=$scale \
        --transport=mpi --ranks=2 --wait=$wait | tail -n +3
    fi
  done
  if [ "$scale" = 1 ]; then
    # P=4 on this machine: more ranks than cores when nproc < 4.
    for wait in spin sleep; do
      "$bench" "${fidelity[@]}" --ranks=4 --wait=$wait | tail -n +3
      if [ -n "$mpi" ]; then
        $mpi -np 4 "$bench" "${fidelity[@]}" --transport=mpi --ranks=4 \
          --wait=$wait | tail -n +3
      fi
    done
  fi
  echo
done
echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
