#!/usr/bin/env bash
# Runs clang-tidy (.clang-tidy: LLVM's naming rules and llvm-* checks) over
# the project's C++ sources with the build's compile_commands.json.
#   scripts/tidy.sh [FILE...]     (default: every .cpp under lib/ tools/
#                                 runtime/)
# Installs clang-tidy-22 through scripts/install-deps.sh --dev.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PP_BUILD_DIR:-$root/build}
"$root/scripts/install-deps.sh" --dev
[ -f "$build/compile_commands.json" ] || "$root/scripts/build.sh"
cd "$root"
if [ $# -eq 0 ]; then
  mapfile -t files < <(find lib tools runtime -name '*.cpp' | sort)
else
  files=("$@")
fi
status=0
for f in "${files[@]}"; do
  clang-tidy-22 -p "$build" --quiet "$f" 2>/dev/null || status=1
done
exit $status
