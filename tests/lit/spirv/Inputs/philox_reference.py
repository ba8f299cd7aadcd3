"""Reference Philox-4x32-10 streams as triton.language draws them, for
tests/lit/spirv/run-random.test: writes int.bin (randint, int32),
uniform.bin (rand), normal.bin (randn), fourth.bin (randint4x's fourth),
wide.bin (uint_to_uniform_float of randint4x's third and first words as one
64-bit word)."""
import math
import struct
import sys

M32 = 0xFFFFFFFF


def philox(seed, c0, c1, c2, c3, rounds=10):
    k0, k1 = seed & M32, (seed >> 32) & M32
    for _ in range(rounds):
        x0, x2 = c0, c2
        c0 = ((0xCD9E8D57 * x2) >> 32) ^ c1 ^ k0
        c2 = ((0xD2511F53 * x0) >> 32) ^ c3 ^ k1
        c1 = (0xCD9E8D57 * x2) & M32
        c3 = (0xD2511F53 * x0) & M32
        k0 = (k0 + 0x9E3779B9) & M32
        k1 = (k1 + 0xBB67AE85) & M32
    return c0, c1, c2, c3


def to_float(u):
    x = u - (1 << 32) if u & 0x80000000 else u
    if x < 0:
        x = ~x
    return struct.unpack("<f", struct.pack("<f", x * 4.6566127342e-10))[0]


def to_float64_word(u):
    x = u - (1 << 64) if u >> 63 else u
    if x < 0:
        x = ~x
    return struct.unpack("<f", struct.pack("<f", x * 1.0842020432385337e-19))[0]


def main():
    out, seed, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    ints, unif, norm, fourth, wide = [], [], [], [], []
    for i in range(n):
        r = philox(seed & ((1 << 64) - 1), i, 0, 0, 0)
        ints.append(r[0] - (1 << 32) if r[0] & 0x80000000 else r[0])
        unif.append(to_float(r[0]))
        u1 = max(1.0e-7, to_float(r[0]))
        th = 6.283185307179586 * to_float(r[1])
        norm.append(math.sqrt(-2.0 * math.log(u1)) * math.cos(th))
        fourth.append(r[3])
        wide.append(to_float64_word((r[2] << 32) | r[0]))
    for name, fmt, vals in (("int", "i", ints), ("uniform", "f", unif),
                            ("normal", "f", norm), ("fourth", "I", fourth),
                            ("wide", "f", wide)):
        with open(f"{out}/{name}.bin", "wb") as f:
            f.write(struct.pack(f"<{n}{fmt}", *vals))


main()
