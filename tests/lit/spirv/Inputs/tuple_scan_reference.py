"""Writes DIR/max.bin (f32) and DIR/index.bin (i32): the running maximum of
x_i = (37 i) mod 101, i < N, and the last index where it occurs, as
tuple_scan.py's running_max computes them. argv: N DIR."""
import os
import struct
import sys

n, out = int(sys.argv[1]), sys.argv[2]
os.makedirs(out, exist_ok=True)
best, where, values, indices = -1, -1, [], []
for i in range(n):
    x = (37 * i) % 101
    if x >= best:
        best, where = x, i
    values.append(best)
    indices.append(where)
with open(os.path.join(out, "max.bin"), "wb") as f:
    f.write(struct.pack(f"<{n}f", *values))
with open(os.path.join(out, "index.bin"), "wb") as f:
    f.write(struct.pack(f"<{n}i", *indices))
