"""Writes DIR/x.bin, y.bin (f32 inputs: i and i / 4 for i < 256) and what
fp8_arith.py's kernel must store: sum.bin and max.bin of the float8e5
roundings, each rounded to float8e5, and rowmax.bin, the largest a. float8e5 is the high
byte of fp16, rounded to nearest even. argv: DIR."""
import os
import struct
import sys


def e5m2(v):
    bits = struct.unpack("<H", struct.pack("<e", v))[0]
    high, low = bits >> 8, bits & 0xFF
    if low > 0x80 or (low == 0x80 and high & 1):
        high += 1
    return struct.unpack("<e", struct.pack("<H", high << 8))[0]


out = sys.argv[1]
os.makedirs(out, exist_ok=True)
n = 256
x = [float(i) for i in range(n)]
y = [i / 4 for i in range(n)]
a = [e5m2(v) for v in x]
b = [e5m2(v) for v in y]
files = {"x.bin": x, "y.bin": y,
         "sum.bin": [e5m2(p + q) for p, q in zip(a, b)],
         "max.bin": [max(p, q) for p, q in zip(a, b)],
         "rowmax.bin": [max(a)]}
for name, values in files.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(struct.pack(f"<{len(values)}f", *values))
