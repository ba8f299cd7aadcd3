import triton
import triton.language as tl


@triton.jit
def _first(a, b):
    # Associative, not commutative: a scan gives its first element.
    return a


@triton.jit
def reverse_cumsum(out_ptr, M: tl.constexpr, N: tl.constexpr,
                   AXIS: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(out_ptr + offs, tl.cumsum(offs, axis=AXIS, reverse=True))


@triton.jit
def reverse_first(out_ptr, M: tl.constexpr, N: tl.constexpr,
                  AXIS: tl.constexpr):
    # combine(later, element): every element gets the last one of its axis.
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(out_ptr + offs,
             tl.associative_scan(offs, AXIS, _first, reverse=True))


@triton.jit
def reverse_cumsum_1d(out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(out_ptr + offs, tl.cumsum(offs, 0, reverse=True))
