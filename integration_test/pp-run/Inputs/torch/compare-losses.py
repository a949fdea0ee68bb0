"""compare-losses.py EXPORT.out PPRUN.out: pp-run's step 1 and step 2 losses
against the PyTorch losses that pp-import-torch --sample-data printed for the
same parameters and data (float32: within a relative 1e-5). Prints one line;
exits 1 if they differ."""

import re
import sys

export = open(sys.argv[1]).read()
run = open(sys.argv[2]).read()
want = [float(m) for m in re.findall(r"^PyTorch: .*: ([0-9.e+-]+) \(pp-run's step [12] loss\)$",
                                     export, re.M)]
got = [float(loss) for loss in
       re.findall(r"^step [12]: loss ([0-9.e+-]+)", run, re.M)]
if len(want) != 2 or len(got) != 2:
    print("compare-losses: expected 2 PyTorch and 2 pp-run losses, found %d "
          "and %d" % (len(want), len(got)))
    sys.exit(1)
errs = [abs(g - w) / abs(w) for g, w in zip(got, want)]
ok = all(e <= 1e-5 for e in errs)
print("losses %s PyTorch's: step 1 %.9g vs %.9g, step 2 %.9g vs %.9g "
      "(largest relative difference %.1e)" % (
          "agree with" if ok else "DIFFER from", got[0], want[0], got[1],
          want[1], max(errs)))
sys.exit(0 if ok else 1)
