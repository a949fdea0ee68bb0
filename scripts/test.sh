#!/usr/bin/env bash
# Sets everything up and runs the whole test suite: installs the system
# packages, builds, then runs check-pp (lit + FileCheck regression tests in
# test/, integration tests in integration_test/, and the GoogleTest unit
# tests, through lit). The last line is the summary.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PP_BUILD_DIR:-$root/build}

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" --target all mlir-doc

results="$build/test/results.json"
rm -f "$results"
status=0
/usr/lib/llvm-22/bin/lit -sv --order=lexical -o "$results" "$build/test" \
  "$build/integration_test" || status=$?
python3 "$root/scripts/lit-summary.py" "$results"
exit $status
