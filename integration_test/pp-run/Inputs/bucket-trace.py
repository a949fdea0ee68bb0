#!/usr/bin/env python3
"""Reads a pp-run Chrome trace and says, per rank of replica 0 (ranks 0 and
1), whether its all-reduce events (category "allreduce", ALLREDUCE_S<stage>,
with the rank in args) end at the same time (within the trace's rounding):
the stages of one bucket are one collective.

  bucket-trace.py TRACE.json
"""
import json
import sys

events = json.load(open(sys.argv[1]))["traceEvents"]
ends = {}
for e in events:
    if e.get("cat") != "allreduce" or e.get("ph") != "X":
        continue
    stage = int(e["name"][len("ALLREDUCE_S"):])
    ends.setdefault(e["args"]["rank"], []).append((stage, e["ts"] + e["dur"]))
for rank in (0, 1):
    found = sorted(ends.get(rank, []))
    stages = ", ".join(str(s) for s, _ in found)
    # One completion time, as ts + dur rounded to 1 ns each.
    together = len(found) > 1 and (max(end for _, end in found) -
                                   min(end for _, end in found)) < 0.01
    print("rank %d: stages %s %s" % (rank, stages,
          "end together" if together else "end apart"))
