#!/usr/bin/env bash
# Size metrics of the C++ sources (CONVENTIONS: no file over ~800 lines, no
# function over ~150): the largest file and function, and every file and
# function over the limits, and exits 1 if there is one (.ci/run runs it).
# Needs universal-ctags (scripts/install-deps.sh --dev).
#   scripts/code-metrics.sh [FILE_LIMIT [FUNCTION_LIMIT]]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
file_limit=${1:-800}
function_limit=${2:-150}
"$root/scripts/install-deps.sh" --dev >/dev/null
cd "$root"
dirs=()
for d in include lib tools runtime unittests bench fuzz; do
  [ -d "$d" ] && dirs+=("$d")
done
mapfile -t sources < <(find "${dirs[@]}" -name '*.cpp' -o -name '*.h' -o -name '*.c' | sort)

echo "files over $file_limit lines:"
over=0
largest_file="" largest_file_lines=0
for f in "${sources[@]}"; do
  n=$(wc -l < "$f")
  if [ "$n" -gt "$largest_file_lines" ]; then largest_file=$f largest_file_lines=$n; fi
  if [ "$n" -gt "$file_limit" ]; then echo "  $n $f"; over=$((over + 1)); fi
done
[ "$over" -eq 0 ] && echo "  none"

# Function definitions with their end lines (C++ kinds f: functions), fields
# separated by \x01 (names such as 'operator bool' hold spaces).
ctags -x --_xformat=$'%N\x01%F\x01%n\x01%{end}' --kinds-C++=f --kinds-C=f \
  --fields=+ne "${sources[@]}" 2>/dev/null |
  awk -F'\001' -v limit="$function_limit" -v lf="$largest_file" -v lfl="$largest_file_lines" '
    $4 != "" { len = $4 - $3 + 1
               if (len > max) { max = len; where = $2 ":" $3 " " $1 }
               if (len > limit) { over[n++] = sprintf("  %d %s:%d %s", len, $2, $3, $1) } }
    END { print "functions over " limit " lines:"
          if (n == 0) print "  none"
          for (i = 0; i < n; i++) print over[i]
          print "largest file: " lfl " lines, " lf
          print "largest function: " max " lines, " where
          exit (n > 0) }' || over=$((over + 1))
[ "$over" -eq 0 ]
