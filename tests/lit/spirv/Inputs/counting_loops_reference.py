"""What counting_loops.py's kernel stores, by Python's own range().
Usage: counting_loops_reference.py OUT_FILE N START"""
import struct
import sys

out, n, start = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
seen = [-1] * 64
for k, i in enumerate(range(n - 1, -1, -1)):
    seen[k] = i
for k, j in enumerate(range(start, n // 4, -3)):
    seen[32 + k] = j
for j in range(n, n + 5, -1):
    seen[63] = j
with open(out, "wb") as f:
    f.write(struct.pack("<64i", *seen))
