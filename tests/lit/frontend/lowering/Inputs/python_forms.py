import math

import triton
import triton.language as tl


@triton.jit
def reshape_dims(x_ptr):
    # x.reshape(d0, d1, ...) as Triton takes it: can_reorder is
    # keyword-only (FlagGems' flash-attention dropout).
    x = tl.load(x_ptr + tl.arange(0, 16))
    y = x.reshape(4, 4)
    z = tl.reshape(y, 2, 2, 4)
    tl.store(x_ptr + tl.arange(0, 16), z.reshape(16, can_reorder=False))


@triton.jit
def math_constants(x_ptr):
    # Python's math constants are floats (FlagGems' angle: pi = math.pi).
    pi = math.pi
    tl.store(x_ptr, tl.load(x_ptr) * pi + math.e)


@triton.jit
def abs_of_pointer(x_ptr):
    tl.store(x_ptr, tl.abs(x_ptr))


@triton.jit
def static_print(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.static_print("N is", N, x.dtype, 1e-5, x, sep=", ")
    tl.store(x_ptr + tl.arange(0, N), x)


@triton.jit
def comparisons(x_ptr):
    # Python's answers: NaN is unordered, ints past 2^53 compare exactly,
    # tuples compare element by element, +True is 1.
    n = math.nan
    a = 9007199254740993
    b = 9007199254740992
    tl.static_assert(False, f"{n == n} {n != n} {n >= 1.0} {n < 1.0} "
                     f"{a == b} {a > b} {(1, 2) == (1, 2)} {(1, 2) != (1, 3)} "
                     f"{(1, 2) == (1, 2, 3)} {+True} {1 == 1.0} {True == 1}")
