//===- RandomLibrary.cpp - triton.language's random numbers as jit code ---===//
//
// Part of the TLE project.
//
//===----------------------------------------------------------------------===//
//
// tl.philox, tl.randint(4x), tl.rand(4x), tl.randn(4x): counter-based
// Philox-4x32 random numbers (Salmon et al., "Parallel random numbers: as
// easy as 1, 2, 3", SC'11), with the stream layout triton.language uses, so
// that a kernel draws the same numbers as under Triton. Written as a jit
// module the front end parses on first use; it needs only tl.umulhi and
// integer arithmetic from the builtins.
//
//===----------------------------------------------------------------------===//

#include "core/frontend/lower/Builtins.h"

const char *tle::frontend::getRandomLibrarySource() {
  return R"py(import triton
import triton.language as tl


@triton.jit
def philox(seed, c0, c1, c2, c3, n_rounds: tl.constexpr = 10):
    # The key is the 64-bit seed (a literal too), low word first; the
    # counter is four 32-bit words. Each round multiplies two words into the
    # other two (high halves) and the key advances by the golden-ratio Weyl
    # constants.
    seed = tl.full((), seed, tl.int64).to(tl.uint64)
    k0 = (seed & 0xFFFFFFFF).to(tl.uint32)
    k1 = ((seed >> 32) & 0xFFFFFFFF).to(tl.uint32)
    c0 = c0.to(tl.uint32, bitcast=True)
    c1 = c1.to(tl.uint32, bitcast=True)
    c2 = c2.to(tl.uint32, bitcast=True)
    c3 = c3.to(tl.uint32, bitcast=True)
    mul_a = tl.full((), 0xD2511F53, tl.uint32)
    mul_b = tl.full((), 0xCD9E8D57, tl.uint32)
    weyl_a = tl.full((), 0x9E3779B9, tl.uint32)
    weyl_b = tl.full((), 0xBB67AE85, tl.uint32)
    for _ in tl.static_range(n_rounds):
        x0 = c0
        x2 = c2
        c0 = tl.umulhi(mul_b, x2) ^ c1 ^ k0
        c2 = tl.umulhi(mul_a, x0) ^ c3 ^ k1
        c1 = mul_b * x2
        c3 = mul_a * x0
        k0 = k0 + weyl_a
        k1 = k1 + weyl_b
    return c0, c1, c2, c3


@triton.jit
def randint4x(seed, offset, n_rounds: tl.constexpr = 10):
    # The offset is the counter's first word (its high word second, for
    # 64-bit offsets); the other two are zero.
    low = offset.to(tl.uint32)
    zero = low * 0
    if tl.constexpr(offset.dtype.primitive_bitwidth) > 32:
        high = (offset >> 32).to(tl.uint32)
    else:
        high = zero
    return philox(seed, low, high, zero, zero, n_rounds)


@triton.jit
def randint(seed, offset, n_rounds: tl.constexpr = 10):
    first, _, _, _ = randint4x(seed, offset, n_rounds)
    return first


@triton.jit
def uint_to_uniform_float(x):
    # The sign bit folded away (~x of a negative), then scaled so that the
    # largest value stays below 1.0 after rounding; 32- or 64-bit words.
    if tl.constexpr(x.dtype.primitive_bitwidth) == 32:
        x = x.to(tl.int32, bitcast=True)
        scale = 4.6566127342e-10
    else:
        tl.static_assert(tl.constexpr(x.dtype.primitive_bitwidth) == 64,
                         "uint_to_uniform_float takes 32- or 64-bit integers")
        x = x.to(tl.int64, bitcast=True)
        scale = 1.0842020432385337e-19
    x = tl.where(x < 0, ~x, x)
    return x * scale


@triton.jit
def rand(seed, offset, n_rounds: tl.constexpr = 10):
    return uint_to_uniform_float(randint(seed, offset, n_rounds))


@triton.jit
def rand4x(seed, offset, n_rounds: tl.constexpr = 10):
    i0, i1, i2, i3 = randint4x(seed, offset, n_rounds)
    return (uint_to_uniform_float(i0), uint_to_uniform_float(i1),
            uint_to_uniform_float(i2), uint_to_uniform_float(i3))


@triton.jit
def pair_uniform_to_normal(u1, u2):
    # Box-Muller, the radius from u1 kept away from log(0).
    u1 = tl.maximum(1.0e-7, u1)
    angle = 6.283185307179586 * u2
    radius = tl.sqrt(-2.0 * tl.log(u1))
    return radius * tl.cos(angle), radius * tl.sin(angle)


@triton.jit
def randn(seed, offset, n_rounds: tl.constexpr = 10):
    i0, i1, _, _ = randint4x(seed, offset, n_rounds)
    n0, _ = pair_uniform_to_normal(uint_to_uniform_float(i0),
                                   uint_to_uniform_float(i1))
    return n0


@triton.jit
def randn4x(seed, offset, n_rounds: tl.constexpr = 10):
    u0, u1, u2, u3 = rand4x(seed, offset, n_rounds)
    n0, n1 = pair_uniform_to_normal(u0, u1)
    n2, n3 = pair_uniform_to_normal(u2, u3)
    return n0, n1, n2, n3
)py";
}
