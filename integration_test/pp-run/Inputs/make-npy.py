"""Writes a NumPy .npy file without NumPy: make-npy.py PATH DTYPE D0,D1,...

DTYPE is f4, f8, i4 or i8 (little endian); the values are i % 7 - 3 (as
floats for f4/f8), deterministic, for tests of pp-run --inputs."""
import struct
import sys

path, dtype, dims = sys.argv[1], sys.argv[2], sys.argv[3]
shape = tuple(int(d) for d in dims.split(",") if d)
count = 1
for d in shape:
    count *= d
fmt = {"f4": "<f", "f8": "<d", "i4": "<i", "i8": "<q"}[dtype]
shape_text = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
header = "{'descr': '<%s', 'fortran_order': False, 'shape': %s, }" % (dtype, shape_text)
pad = 64 - (10 + len(header) + 1) % 64
header = header + " " * pad + "\n"
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00")
    f.write(struct.pack("<H", len(header)))
    f.write(header.encode("latin1"))
    for i in range(count):
        v = i % 7 - 3
        f.write(struct.pack(fmt, float(v) if dtype[0] == "f" else v))
