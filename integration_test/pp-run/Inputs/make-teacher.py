"""A learnable dataset for pp-run --dataset, without NumPy.

usage: make-teacher.py X.npy T.npy N ROWS IN OUT

Writes N samples of inputs x (ROWS x IN, uniform in [-1, 1) from a fixed
linear congruential generator) and targets t = tanh(x A) B (ROWS x OUT)
of a fixed teacher network (A: IN x 8, B: 8 x OUT, from the same
generator): a student that fits the teacher lowers its loss for a reason.
Written for the tests of pp-run --dataset (our own data)."""
import math
import struct
import sys


def write(path, shape, values):
    text = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': %s, }" % text
    header += " " * (64 - (10 + len(header) + 1) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00")
        f.write(struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        for v in values:
            f.write(struct.pack("<f", v))


state = 12345


def uniform():
    global state
    state = (state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
    return (state >> 40) / float(1 << 24) * 2.0 - 1.0


xpath, tpath = sys.argv[1], sys.argv[2]
n, rows, fan_in, fan_out = (int(v) for v in sys.argv[3:7])
hidden = 8
a = [[uniform() for _ in range(hidden)] for _ in range(fan_in)]
b = [[uniform() for _ in range(fan_out)] for _ in range(hidden)]
xs, ts = [], []
for _ in range(n):
    for _ in range(rows):
        x = [uniform() for _ in range(fan_in)]
        h = [math.tanh(sum(x[i] * a[i][j] for i in range(fan_in))) for j in range(hidden)]
        xs += x
        ts += [sum(h[j] * b[j][k] for j in range(hidden)) for k in range(fan_out)]
write(xpath, (n, rows, fan_in), xs)
write(tpath, (n, rows, fan_out), ts)
