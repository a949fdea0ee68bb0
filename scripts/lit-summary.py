#!/usr/bin/env python3
"""Prints one closing line for a lit JSON result file (lit -o FILE):
'check-pp: N passed, N failed, N skipped'. Exits non-zero if the file is
missing or no test ran."""
import json
import sys

try:
    with open(sys.argv[1]) as f:
        tests = json.load(f)["tests"]
except (OSError, KeyError, ValueError) as e:
    print(f"check-pp: no results ({e})")
    sys.exit(1)

passed = sum(t["code"] in ("PASS", "XFAIL") for t in tests)
skipped = sum(t["code"] in ("UNSUPPORTED", "SKIPPED") for t in tests)
failed = len(tests) - passed - skipped
print(f"check-pp: {passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed or passed == 0 else 0)
