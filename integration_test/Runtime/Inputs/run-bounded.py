#!/usr/bin/env python3
"""Runs a command with a time limit and reports how it ended.

  run-bounded.py --limit SECONDS [--no-leftover NAME] -- COMMAND...

Prints the command's output (stdout and stderr merged), then one line:
  run-bounded: exit code N within LIMIT s
  run-bounded: TIMED OUT after LIMIT s
and, with --no-leftover, after waiting up to 5 s for them to go:
  run-bounded: no NAME process left
  run-bounded: N NAME process(es) left running
Exits 0 so that FileCheck decides; kills the command's process group on a
timeout.
"""

import argparse
import os
import signal
import subprocess
import sys
import time


def running(name):
    """Processes called `name` that are not zombies."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1:stat.rindex(")")]
        state = stat[stat.rindex(")") + 2:].split()[0]
        if comm == name[:15] and state != "Z":
            pids.append(int(entry))
    return pids


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=float, required=True)
    parser.add_argument("--no-leftover")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    proc = subprocess.Popen(command, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=args.limit)
        sys.stdout.write(out.decode(errors="replace"))
        print(f"run-bounded: exit code {proc.returncode} within {args.limit:g} s")
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        sys.stdout.write(out.decode(errors="replace"))
        print(f"run-bounded: TIMED OUT after {args.limit:g} s")
    if args.no_leftover:
        # A tool substitution may have made the name a path.
        args.no_leftover = os.path.basename(args.no_leftover)
        deadline = time.monotonic() + 5
        while running(args.no_leftover) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = running(args.no_leftover)
        if left:
            print(f"run-bounded: {len(left)} {args.no_leftover} process(es) "
                  "left running")
        else:
            print(f"run-bounded: no {args.no_leftover} process left")
    return 0


if __name__ == "__main__":
    sys.exit(main())
