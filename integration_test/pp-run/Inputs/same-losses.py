#!/usr/bin/env python3
"""Checks that pp-run runs trained the same losses, bit for bit.

usage: same-losses.py [--steps=K] [--rtol=R] OUTPUT OUTPUT...

Each OUTPUT is what one pp-run printed. The script reads every
"step N: loss X" line and the closing "trained N steps: the loss fell from X
to Y" line, and requires every run to print the same sequence as the first,
character for character (pp-run prints losses with 9 significant digits, the
shortest form that round-trips a float32, so equal text is equal bits). On
success it prints "same losses: N steps in K runs, the loss fell" (or "did not fall"); otherwise
it names the first run and step that differ and exits 1.

--steps=K compares the first K steps only (and not the closing line);
--rtol=R accepts losses within a relative R of each other, for claims that
are not bitwise (two different models that must agree: a model with its
ops split against the whole one, whose GEMMs of other shapes may take
other BLAS kernel paths).

The suite compares runs with each other this way instead of pinning a loss:
the last digits of a float32 GEMM depend on the BLAS kernel and the vector
width of the machine (docs/Testing.md), two runs on one machine do not.
"""
import re
import sys

STEP = re.compile(r"^step (\d+): loss ([^,\s]+)")
TRAINED = re.compile(r"^trained (\d+) steps?: the loss (fell|did not fall)\b.*")


def agree(a, b, rtol):
    if rtol is None:
        return a == b
    x, y = float(a), float(b)
    return abs(x - y) <= rtol * max(abs(x), abs(y))


def losses(path, limit=None):
    steps, trained = [], None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            m = STEP.match(line)
            if m:
                steps.append((int(m.group(1)), m.group(2)))
            elif TRAINED.match(line):
                trained = line
    if limit is not None:
        return steps[:limit], None
    return steps, trained


def main(args):
    limit, rtol, paths = None, None, []
    for a in args:
        if a.startswith("--steps="):
            limit = int(a[len("--steps="):])
        elif a.startswith("--rtol="):
            rtol = float(a[len("--rtol="):])
        else:
            paths.append(a)
    if len(paths) < 2:
        print("same-losses: give at least two pp-run outputs", file=sys.stderr)
        return 2
    first_steps, first_trained = losses(paths[0], limit)
    if not first_steps:
        print(f"same-losses: {paths[0]} prints no 'step N: loss X' line",
              file=sys.stderr)
        return 1
    for path in paths[1:]:
        steps, trained = losses(path, limit)
        if len(steps) != len(first_steps):
            print(f"same-losses: {path} prints {len(steps)} losses, "
                  f"{paths[0]} {len(first_steps)}", file=sys.stderr)
            return 1
        for (n, a), (_, b) in zip(first_steps, steps):
            if not agree(a, b, rtol):
                print(f"same-losses: step {n}: loss {b} in {path}, "
                      f"{a} in {paths[0]}", file=sys.stderr)
                return 1
        if trained != first_trained:
            print(f"same-losses: {path} ends '{trained}', {paths[0]} "
                  f"'{first_trained}'", file=sys.stderr)
            return 1
    verdict = ""
    if first_trained:
        verdict = ", the loss " + TRAINED.match(first_trained).group(2)
    within = f" (within a relative {rtol:g})" if rtol is not None else ""
    print(f"same losses: {len(first_steps)} steps in {len(paths)} runs"
          f"{within}{verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
