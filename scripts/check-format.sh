#!/usr/bin/env bash
# Checks that the C++ sources tracked by git are formatted as .clang-format
# says (clang-format-22, installed by scripts/install-deps.sh --dev); lists
# every file that is not and exits 1.
#   scripts/check-format.sh [--fix] [FILE...]   (default: every tracked
#                                                .cpp, .h, .c outside Inputs/)
# --fix formats the files in place instead.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
fix=0
if [ "${1:-}" = "--fix" ]; then fix=1; shift; fi
command -v clang-format-22 >/dev/null || "$root/scripts/install-deps.sh" --dev >/dev/null
if [ $# -eq 0 ]; then
  mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.c' ':!:**/Inputs/**')
else
  files=("$@")
fi
if [ $fix -eq 1 ]; then
  clang-format-22 -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  clang-format-22 --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  echo "not formatted (scripts/check-format.sh --fix formats them):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "formatting: ${#files[@]} files as .clang-format says"
