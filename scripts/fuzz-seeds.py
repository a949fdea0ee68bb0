#!/usr/bin/env python3
"""Collects the fuzz targets' seed corpora (fuzz/corpus/<target>/) from test/.

  scripts/fuzz-seeds.py [--pp-opt build/bin/pp-opt]

- ir:       test/Dialect/PP/IR/*.mlir and the pp-schedule / pp-insert-
            communication / pp-verify-schedule tests, split at `// -----`,
            and examples/*.mlir; with --pp-opt also scheduled IR (pp-plan of
            a few examples), which has pp.schedule with sends and receives.
- table:    test/Tools/pp-translate/Inputs/*.csv.
- npy:      integration_test/pp-exec/Inputs/*.npy and a few small files written here.
- schedule: byte strings for ScheduleFuzzer.cpp's layout: each placement,
            several P, V, M, group sizes, latencies and memory limits.
Files are named by content hash, so rerunning adds nothing twice. Crash
inputs kept as regressions (fuzz/corpus/<target>/crash-*) are left alone.
"""
import argparse
import hashlib
import os
import struct
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
corpus = os.path.join(root, "fuzz", "corpus")
MAX_BYTES = 6000


def add(target, data, prefix="seed"):
    if isinstance(data, str):
        data = data.encode()
    if len(data) > MAX_BYTES:
        return
    d = os.path.join(corpus, target)
    os.makedirs(d, exist_ok=True)
    name = "%s-%s" % (prefix, hashlib.sha1(data).hexdigest()[:12])
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def ir_seeds(pp_opt):
    files = []
    pp = os.path.join(root, "test", "Dialect", "PP")
    ir = os.path.join(pp, "IR")
    files += [os.path.join(ir, f) for f in sorted(os.listdir(ir))
              if f.endswith(".mlir")]
    tr = os.path.join(pp, "Transforms")
    files += [os.path.join(tr, f) for f in sorted(os.listdir(tr))
              if f.startswith(("pp-schedule.", "pp-insert-communication",
                               "pp-verify-schedule", "pp-simulate-zb-v",
                               "pp-place-stages.", "pp-plan."))]
    ex = os.path.join(root, "examples")
    files += [os.path.join(ex, f) for f in sorted(os.listdir(ex))
              if f.endswith(".mlir") and f != "tanh-mlp3.mlir"]
    for path in files:
        text = read(path).decode()
        for chunk in text.split("// -----"):
            # Drop the lit and FileCheck lines: they are comments to the
            # parser and only slow the fuzzer down.
            lines = [l for l in chunk.splitlines()
                     if not l.lstrip().startswith("//")]
            body = "\n".join(lines).strip() + "\n"
            if "pp." in body:
                add("ir", body)
    if pp_opt:
        for example, plan in [("p4-m4.mlir", "schedule=1f1b num-microbatches=4"),
                              ("hetero-p4.mlir", "schedule=zb-h1 num-microbatches=4"),
                              ("chunks8.mlir", None)]:
            args = [pp_opt, os.path.join(ex, example)]
            if plan:
                args.append("--pp-plan=%s" % plan)
            else:
                args += ["--pp-place-stages=ranks=4 placement=v",
                         "--pp-plan=schedule=zb-v num-microbatches=2"]
            out = subprocess.run(args, capture_output=True, text=True)
            if out.returncode == 0:
                add("ir", out.stdout)


def table_seeds():
    d = os.path.join(root, "test", "Tools", "pp-translate", "Inputs")
    for f in sorted(os.listdir(d)):
        if f.endswith(".csv"):
            add("table", read(os.path.join(d, f)))


def npy(descr, shape, payload, version=1):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (
        descr, shape)
    pre = 10 if version == 1 else 12
    total = pre + len(header) + 1
    header += " " * ((total + 63) // 64 * 64 - total) + "\n"
    if version == 1:
        head = b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header))
    else:
        head = b"\x93NUMPY" + bytes([version, 0]) + struct.pack("<I", len(header))
    return head + header.encode() + payload


def npy_seeds():
    d = os.path.join(root, "integration_test", "pp-exec", "Inputs")
    for f in sorted(os.listdir(d)):
        if f.endswith(".npy"):
            add("npy", read(os.path.join(d, f)))
    add("npy", npy("<f4", "(2, 3)", struct.pack("<6f", *range(6))))
    add("npy", npy("<f8", "()", struct.pack("<d", 1.5)))
    add("npy", npy("<i8", "(0,)", b""))
    add("npy", npy("<i4", "(3,)", struct.pack("<3i", 1, -2, 3), version=3))
    add("npy", npy("|i8", "(1, 1, 1)", struct.pack("<q", 7)))


def schedule_seeds():
    # P-1, V-1, placement (0 loop, 1 V, 2 explicit), M-1, group size,
    # latency, limit, then per stage: [rank], F, B, W, M_B, M_W.
    for placement in range(3):
        for p in (1, 2, 4):
            for m in (1, 4, 8):
                v = 2 if placement == 1 else 1
                head = [p - 1, v - 1, placement, m - 1, 0, 1, 0]
                stages = p * v if placement != 2 else p + 1
                body = []
                for s in range(stages):
                    if placement == 2:
                        body.append(s % p)
                    body += [0, 0, 2 if s % 2 else 1, 0, 2]
                add("schedule", bytes(head + body))
    # Loop placement with two chunks per rank, group sizes, memory limits.
    for group in range(4):
        for limit in (0, 5, 9, 30):
            add("schedule", bytes([3, 1, 0, 7, group, 2, limit] + [0] * 40))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pp-opt", help="pp-opt, for scheduled IR seeds")
    args = ap.parse_args()
    ir_seeds(args.pp_opt)
    table_seeds()
    npy_seeds()
    schedule_seeds()
    for t in sorted(os.listdir(corpus)):
        print("%s: %d files" % (t, len(os.listdir(os.path.join(corpus, t)))))


if __name__ == "__main__":
    sys.exit(main())
