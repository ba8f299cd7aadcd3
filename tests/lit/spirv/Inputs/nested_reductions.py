import triton
import triton.language as tl


# Reductions of a reduction's result: the row sums and the column maxima
# (slices of the tile's layout) are reduced again, along the one axis they
# have left.
@triton.jit
def nested_kernel(x_ptr, sum_ptr, max_ptr, min_ptr, M: tl.constexpr,
                  N: tl.constexpr):
    rows = tl.arange(0, M)
    cols = tl.arange(0, N)
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :])
    row_sums = tl.sum(x, axis=1)
    tl.store(sum_ptr, tl.sum(row_sums, axis=0))
    tl.store(max_ptr, tl.max(row_sums, axis=0))
    tl.store(min_ptr, tl.min(tl.max(x, axis=0), axis=0))
