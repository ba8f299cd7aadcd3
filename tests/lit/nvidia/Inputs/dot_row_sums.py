import triton
import triton.language as tl


# A reduction of a tl.dot result: the accumulator is in the matrix unit's
# layout, which layout assignment converts to a blocked one for the sum.
@triton.jit
def dot_row_sums(a_ptr, b_ptr, out_ptr, BM: tl.constexpr, BN: tl.constexpr,
                 BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * BK + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * BN + rn[None, :])
    acc = tl.dot(a, b)
    tl.store(out_ptr + rm, tl.sum(acc, axis=1))
