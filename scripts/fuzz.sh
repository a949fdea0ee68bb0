#!/usr/bin/env bash
# Fuzzes pp-mlir with libFuzzer: builds the fuzz targets (fuzz/) in
# build-fuzz/ with ASan and libFuzzer coverage on every pp-mlir library
# (-DPP_SANITIZE=address -DPP_FUZZ_COVERAGE=ON), then runs each target for
# SECONDS, one after the other.
#
#   scripts/fuzz.sh SECONDS [TARGET...]    # targets: ir schedule table npy
#
# Each target starts from its seeds (fuzz/corpus/<target>/, read only) and
# keeps what it finds in build-fuzz/corpus/<target>/ (reused by the next
# run); crashing inputs land in build-fuzz/artifacts/<target>/ and the log
# in build-fuzz/logs/<target>.log. Prints, per target, the seconds run, the
# executions and the corpus size; exits 1 if any target crashed. A crash is
# reproduced by running the target on the file:
#   build-fuzz/bin/pp-fuzz-table build-fuzz/artifacts/table/crash-...
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PP_FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=${1:?usage: scripts/fuzz.sh SECONDS [TARGET...]}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(ir schedule table npy)

"$root/scripts/install-deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  CC=clang-22 CXX=clang++-22 cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DPP_SANITIZE=address -DPP_FUZZ_COVERAGE=ON -DBUILD_TESTING=OFF
fi
fuzzers=()
for t in "${targets[@]}"; do fuzzers+=("pp-fuzz-$t"); done
cmake --build "$build" -j "${PP_JOBS:-$(nproc)}" --target "${fuzzers[@]}"

export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:symbolize=1}
export ASAN_SYMBOLIZER_PATH=${ASAN_SYMBOLIZER_PATH:-/usr/lib/llvm-22/bin/llvm-symbolizer}
status=0
summary=()
for t in "${targets[@]}"; do
  corpus="$build/corpus/$t" artifacts="$build/artifacts/$t"
  log="$build/logs/$t.log"
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  echo "fuzz: $t for ${seconds}s (log: $log)"
  rc=0 start=$SECONDS
  "$build/bin/pp-fuzz-$t" -max_total_time="$seconds" -timeout=30 \
    -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "$corpus" "$root/fuzz/corpus/$t" \
    >"$log" 2>&1 || rc=$?
  elapsed=$((SECONDS - start))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  size=$(find "$corpus" -type f | wc -l)
  crashes=$(find "$artifacts" -type f | wc -l)
  line="$t: ${elapsed}s, ${execs:-?} executions, corpus $size files (+ seeds), exit $rc, $crashes crash files in $artifacts"
  summary+=("$line")
  if [ "$rc" -ne 0 ]; then
    status=1
    grep -m5 -E "ERROR|invariant broken|deadly signal|Timeout|out-of-memory" "$log" || true
  fi
done
printf 'fuzz: %s\n' "${summary[@]}"
exit $status
