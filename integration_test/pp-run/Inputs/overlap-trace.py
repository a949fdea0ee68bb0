#!/usr/bin/env python3
"""Reads a pp-run Chrome trace and says, for every all-reduce event
(category "allreduce", ALLREDUCE_S<stage>, the rank in args; the compute
actions on pid 0 with tid = rank) of every rank, whether it
starts at or after the end of its stage's last gradient action on that
rank (a W, or a fused backward), and whether the rank still computes after
that start (the all-reduce overlaps later work):

  rank 0: stage 2 after its last W, overlapping 3 later compute actions
  rank 0: stage 0 after its last W, overlapping nothing

  overlap-trace.py TRACE.json
"""
import json
import sys

COMPUTE = ("forward", "backward", "backward_input", "backward_weight")
GRADIENT = ("backward", "backward_weight")

events = [e for e in json.load(open(sys.argv[1]))["traceEvents"]
          if e.get("ph") == "X"]
for e in sorted((e for e in events if e.get("cat") == "allreduce"),
                key=lambda e: (e["args"]["rank"], e["ts"])):
    rank, stage = e["args"]["rank"], int(e["name"][len("ALLREDUCE_S"):])
    own = [x for x in events if x["pid"] == 0 and x["tid"] == rank]
    last = max(x["ts"] + x["dur"] for x in own
               if x.get("cat") in GRADIENT and x["args"].get("stage") == stage)
    later = sum(1 for x in own
                if x.get("cat") in COMPUTE and x["ts"] >= e["ts"])
    # Times are printed with 1 ns resolution; allow that much.
    where = "after its last W" if e["ts"] >= last - 0.001 else "BEFORE its last W"
    print("rank %d: stage %d %s, overlapping %s" % (
        rank, stage, where,
        "%d later compute actions" % later if later else "nothing"))
