"""Inputs and expected outputs of fp8_convert.py's fp8_round_trip, computed
without the compiler: every code of an 8-bit format decoded by its
definition, and each input rounded to the nearest code (ties to the even
code, or toward zero), saturating to the largest finite value, as Triton's
NVIDIA lowering converts (cvt.rn.satfinite).
Usage: fp8_reference.py OUT_DIR COUNT"""
import math
import random
import struct
import sys


def values(exp_bits, man_bits, bias, ieee):
    """Positive codes and their values, finite ones only."""
    out = []
    for code in range(1 << (exp_bits + man_bits)):
        e, m = code >> man_bits, code & ((1 << man_bits) - 1)
        if ieee and e == (1 << exp_bits) - 1:
            continue
        if not ieee and code == 0x7F:
            continue
        if e == 0:
            v = m * 2.0 ** (1 - bias - man_bits)
        else:
            v = (1 + m / (1 << man_bits)) * 2.0 ** (e - bias)
        out.append((code, v))
    return out


def encode(x, table, toward_zero):
    sign = 0x80 if math.copysign(1.0, x) < 0 else 0
    a = abs(x)
    top_code, top = table[-1]
    if a >= top:
        return sign | top_code
    lo = max((c, v) for c, v in table if v <= a)
    hi = min((c, v) for c, v in table if v >= a)
    if toward_zero or lo[1] == a:
        return sign | lo[0]
    d_lo, d_hi = a - lo[1], hi[1] - a
    if d_lo < d_hi or (d_lo == d_hi and lo[0] % 2 == 0):
        return sign | lo[0]
    return sign | hi[0]


def decode(code, table):
    value = dict(table)[code & 0x7F]
    return -value if code & 0x80 else value


def main():
    out, n = sys.argv[1], int(sys.argv[2])
    e4 = values(4, 3, 7, False)
    e5 = values(5, 2, 15, True)
    rng = random.Random(7)
    special = [0.0, -0.0, 448.0, 449.0, 464.0, 480.0, 1e6, -1e6,
               float("inf"), float("-inf"), 2.0 ** -6, 2.0 ** -9,
               2.0 ** -10, 1.5 * 2.0 ** -9, 2.5 * 2.0 ** -9, 1.0625,
               1.1875, 57344.0, 61440.0, 2.0 ** -16, 3 * 2.0 ** -18]
    xs = [struct.unpack("f", struct.pack("f", v))[0] for v in special]
    while len(xs) < n:
        xs.append(struct.unpack("f", struct.pack(
            "f", rng.choice([-1, 1]) * 2.0 ** rng.uniform(-20, 18)))[0])
    xs = xs[:n]
    files = {
        "x.bin": ("f", xs),
        "e4.bin": ("B", [encode(x, e4, False) for x in xs]),
        "e5.bin": ("B", [encode(x, e5, False) for x in xs]),
        "rtz.bin": ("B", [encode(x, e4, True) for x in xs]),
    }
    files["e4_back.bin"] = ("f", [decode(c, e4) for c in files["e4.bin"][1]])
    files["e5_back.bin"] = ("f", [decode(c, e5) for c in files["e5.bin"][1]])
    for name, (fmt, data) in files.items():
        with open(f"{out}/{name}", "wb") as f:
            f.write(struct.pack(f"<{len(data)}{fmt}", *data))


if __name__ == "__main__":
    main()
