#!/usr/bin/env bash
# Valgrind memcheck on the runtime and pp-run (docs/Testing.md): builds the
# normal build/ (as scripts/build.sh does), then runs under memcheck
#   - every GoogleTest binary of the runtime (build/unittests/PPRuntime*Tests),
#   - pp-run examples/tanh-mlp3.mlir --function=mlp --ranks=3
#     --microbatches=4 --schedule=zb-h1 --steps=3 --check (inproc threads),
#   - the same with --ranks=2 --schedule=1f1b --transport=mpi under
#     mpirun -np 2 (each rank under its own valgrind; OpenMPI's own
#     suppression file /usr/share/openmpi/openmpi-valgrind.supp applies),
# each with --error-exitcode, and fails if any reports an error. Logs:
# build/valgrind-logs/<run>.log (one per process).
#
#   scripts/valgrind.sh [--no-build]     # PP_BUILD_DIR: another build dir
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PP_BUILD_DIR:-$root/build}

"$root/scripts/install-deps.sh"
if [ "${1:-}" != "--no-build" ]; then
  "$root/scripts/build.sh" --target PPUnitTests pp-run
fi

logs=${PP_VALGRIND_LOGS:-$build/valgrind-logs}
rm -rf "$logs"
mkdir -p "$logs"
supp=(--suppressions="$root/scripts/sanitizers/valgrind.supp")
[ -f /usr/share/openmpi/openmpi-valgrind.supp ] &&
  supp+=(--suppressions=/usr/share/openmpi/openmpi-valgrind.supp)
# --smc-check: the JIT writes code into memory it then runs.
vg=(valgrind --tool=memcheck --error-exitcode=99 --leak-check=full
    --errors-for-leak-kinds=definite --track-origins=yes
    --smc-check=all-non-file --num-callers=30 "${supp[@]}")

# Every free to the allocator (the runtime otherwise keeps large buffers for
# reuse), so that memcheck sees each one.
export PPRT_BLOCK_CACHE=0

status=0
summary=()
run() { # run NAME COMMAND...: one run, its log(s) under $logs/NAME*.log
  local name=$1 rc=0
  shift
  echo "valgrind: $name"
  "$@" >"$logs/$name.out" 2>&1 || rc=$?
  local errors
  errors=$(cat "$logs/$name"*.log 2>/dev/null |
    sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' |
    awk '{s += $1} END {print s + 0}')
  summary+=("$name: $errors errors, exit $rc")
  if [ "$rc" -ne 0 ] || [ "$errors" -ne 0 ]; then
    status=1
    tail -20 "$logs/$name.out"
  fi
}

for t in "$build"/unittests/PPRuntime*Tests; do
  [ -x "$t" ] || continue
  n=$(basename "$t")
  run "$n" "${vg[@]}" --log-file="$logs/$n.log" "$t"
done

export PATH="$build/bin:$PATH"
run pp-run-zb-h1 "${vg[@]}" --log-file="$logs/pp-run-zb-h1.log" \
  pp-run "$root/examples/tanh-mlp3.mlir" --function=mlp --ranks=3 \
  --microbatches=4 --schedule=zb-h1 --steps=3 --check

if grep -q "PPRT_HAVE_MPI:INTERNAL=ON" "$build/CMakeCache.txt" &&
   command -v mpirun >/dev/null; then
  run pp-run-mpi mpirun --allow-run-as-root --oversubscribe -np 2 \
    "${vg[@]}" --log-file="$logs/pp-run-mpi.%q{OMPI_COMM_WORLD_RANK}.log" \
    pp-run "$root/examples/tanh-mlp3.mlir" --function=mlp --ranks=2 --cuts=2 \
    --microbatches=4 --schedule=1f1b --steps=3 --check --transport=mpi
fi

printf 'valgrind: %s\n' "${summary[@]}"
exit $status
