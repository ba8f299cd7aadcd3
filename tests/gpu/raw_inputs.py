#!/usr/bin/env python3
"""Inputs and reference outputs for the TLE-Raw examples, as raw
little-endian files that tle-run reads (buf:T:N=..:file=P, out:..:ref=P).

Standard library only: it runs here for the CPU tests and wherever the GPU
script is prepared. Values are small integers or multiples of 1/8 so that
fp16 inputs are exact and the references depend only on fp32 rounding.

Usage: raw_inputs.py DIR [warp_sum N] [gemm M N K ALPHA] [fp8_gemm M N K]
"""
import math
import os
import random
import struct
import sys


def write(path, fmt, values):
    with open(path, "wb") as f:
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


def warp_sum(out_dir, n):
    rng = random.Random(11)
    x = [rng.randint(-100, 100) for _ in range(n)]
    ref = []
    for i in range(n):
        g = i // 32 * 32
        ref.append(sum(x[g:g + 32]))
    write(os.path.join(out_dir, "warp_sum.x.i32"), "i", x)
    write(os.path.join(out_dir, "warp_sum.ref.i32"), "i", ref)


def gelu(x):
    return 0.5 * x * (1.0 + math.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))


def gemm(out_dir, m, n, k, alpha):
    rng = random.Random(12)
    a = [rng.randint(-8, 8) / 8.0 for _ in range(m * k)]
    b = [rng.randint(-8, 8) / 8.0 for _ in range(k * n)]
    bias = [rng.randint(-16, 16) / 8.0 for _ in range(n)]
    c = []
    for i in range(m):
        row = a[i * k:(i + 1) * k]
        for j in range(n):
            acc = 0.0
            for p in range(k):
                acc += row[p] * b[p * n + j]
            c.append(gelu(alpha * acc + bias[j]))
    write(os.path.join(out_dir, "gemm.a.f16"), "e", a)
    write(os.path.join(out_dir, "gemm.b.f16"), "e", b)
    write(os.path.join(out_dir, "gemm.bias.f32"), "f", bias)
    write(os.path.join(out_dir, "gemm.ref.f32"), "f", c)


def fp8_gemm(out_dir, m, n, k):
    """A (M x K), B (K x N, also as its N x K transpose) in e4m3 and e5m2
    bytes, and C = A @ B. Positive multiples of 1/8 (e4m3) and 1/4 (e5m2)
    up to 2, which both formats hold exactly: C is exact in fp32 and never
    0, so a relative tolerance covers the tensor cores' accumulation."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
        __file__)), "..", "lit", "spirv", "Inputs"))
    import fp8_reference
    for name, table, step in (("e4", fp8_reference.values(4, 3, 7, False), 8),
                              ("e5", fp8_reference.values(5, 2, 15, True), 4)):
        rng = random.Random(13)
        a = [rng.randint(1, 2 * step) for _ in range(m * k)]
        b = [rng.randint(1, 2 * step) for _ in range(k * n)]
        code = {v: fp8_reference.encode(v / step, table, False)
                for v in range(1, 2 * step + 1)}
        bt = [b[p * n + j] for j in range(n) for p in range(k)]
        c = []
        for i in range(m):
            row = a[i * k:(i + 1) * k]
            for j in range(n):
                col = bt[j * k:(j + 1) * k]
                c.append(sum(x * y for x, y in zip(row, col)) / step ** 2)
        for suffix, values in (("a", a), ("b", b), ("bt", bt)):
            write(os.path.join(out_dir, "fp8_gemm.%s.%s" % (suffix, name)), "B",
                  [code[v] for v in values])
        write(os.path.join(out_dir, "fp8_gemm.ref.%s.f32" % name), "f", c)


def main(argv):
    out_dir = argv[1]
    os.makedirs(out_dir, exist_ok=True)
    rest = argv[2:]
    while rest:
        if rest[0] == "warp_sum":
            warp_sum(out_dir, int(rest[1]))
            rest = rest[2:]
        elif rest[0] == "gemm":
            gemm(out_dir, int(rest[1]), int(rest[2]), int(rest[3]),
                 float(rest[4]))
            rest = rest[5:]
        elif rest[0] == "fp8_gemm":
            fp8_gemm(out_dir, int(rest[1]), int(rest[2]), int(rest[3]))
            rest = rest[4:]
        else:
            sys.exit("raw_inputs.py: unknown set '%s'" % rest[0])


if __name__ == "__main__":
    main(sys.argv)
