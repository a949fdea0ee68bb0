#!/usr/bin/env bash
# Builds pp-mlir with AddressSanitizer (LeakSanitizer included) and
# UndefinedBehaviorSanitizer in build-asan/ (-DPP_SANITIZE=address,undefined:
# every pp-mlir target, runtime/ and unittests/ included; Debian's libMLIR.so
# stays uninstrumented) and runs the whole lit suite there. Every sanitized
# process (tools, JIT runs, ranks under mpirun, GoogleTest binaries) writes
# its reports to build-asan/sanitizer-logs/, so reports are counted even
# from tests that expect a failure or drop stderr. Fails if lit fails or if
# there is any report ("ERROR: AddressSanitizer", "runtime error:",
# "LeakSanitizer"); the last line is the count.
#
#   scripts/sanitize.sh [lit args...]     e.g. scripts/sanitize.sh --filter pp-run
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PP_ASAN_BUILD_DIR:-$root/build-asan}

"$root/scripts/install-deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  CC=clang-22 CXX=clang++-22 cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DCMAKE_INSTALL_PREFIX="$build/install" \
    -DPP_SANITIZE=address,undefined
fi
cmake --build "$build" -j "${PP_JOBS:-$(nproc)}" --target all mlir-doc

logs="$build/sanitizer-logs"
rm -rf "$logs"
mkdir -p "$logs"
supp="$root/scripts/sanitizers"
# log_path: one file per process (<prefix>.<pid>), whatever the test does
# with the process's stderr.
export ASAN_OPTIONS="log_path=$logs/report:detect_leaks=1:check_initialization_order=1"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="log_path=$logs/report:print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp"
export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-22/bin/llvm-symbolizer
# Every free to the allocator, so that ASan sees use after free of large
# buffers too (the runtime otherwise keeps them for reuse).
export PPRT_BLOCK_CACHE=0

results="$build/test/results.json"
rm -f "$results"
status=0
/usr/lib/llvm-22/bin/lit -sv --order=lexical -o "$results" "$@" "$build/test" || status=$?
python3 "$root/scripts/lit-summary.py" "$results" || true

reports=$(cat "$logs"/* 2>/dev/null |
  grep -cE "ERROR: AddressSanitizer|runtime error:|ERROR: LeakSanitizer|LeakSanitizer has encountered" || true)
if [ "$reports" -ne 0 ]; then
  echo "sanitize: reports (first lines of each file in $logs):"
  grep -lE "ERROR: AddressSanitizer|runtime error:|LeakSanitizer" "$logs"/* |
    while read -r f; do
      echo "== $f"
      grep -m1 -A12 -E "ERROR: AddressSanitizer|runtime error:|LeakSanitizer" "$f"
    done
  status=1
fi
echo "sanitize: $reports sanitizer reports ($(ls "$logs" | wc -l) log files in $logs)"
exit $status
