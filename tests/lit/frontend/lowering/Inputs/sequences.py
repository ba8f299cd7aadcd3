import triton
import triton.language as tl


@triton.jit
def sequences(x_ptr, N: tl.constexpr):
    # Repetition and slicing of constexpr tuples and strings, as Python
    # does them; the message lists each result.
    s: tl.constexpr = (10, 11, 12, 13, 14)
    rep = [2] * N
    tl.static_assert(False, f"{len(rep)} {rep[N - 1]} {len(3 * (1, 2))} "
                     f"{len([1] * -1)} {'ab' * 2} {2 * 'c'} | "
                     f"{len(s[1:3])} {s[1:3][0]} {s[-2:][0]} {s[:-1][3]} "
                     f"{s[::-1][0]} {s[::2][2]} {len(s[3:1])} "
                     f"{len(s[-100:100])} {s[4:-6:-2][2]} {'abc'[::-1]}")


@triton.jit
def zero_step(x_ptr):
    s: tl.constexpr = (1, 2)
    tl.static_assert(len(s[::0]) == 0)


@triton.jit
def library_error(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16)[:, None] * 16 +
                tl.arange(0, 16)[None, :])
    tl.store(x_ptr, tl.sum(tl.sort(x, dim=0)))


@triton.jit
def library_helper(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr, tl.reduce(x, 0, tl._xor_combine))


@triton.jit
def extremes(x_ptr):
    # Steps past the end in one stride, and repeating nothing many times.
    t: tl.constexpr = (1, 2, 3)
    u: tl.constexpr = t[1::9223372036854775807]
    v: tl.constexpr = t[::-9223372036854775807]
    tl.static_assert(False, f"{len(u)} {u[0]} {len(v)} {v[0]} "
                     f"{len('' * 100000000000000)} {len(() * 10**15)}")
