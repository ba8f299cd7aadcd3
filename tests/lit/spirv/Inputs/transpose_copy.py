import triton
import triton.language as tl


# A tile read along its rows and written down its columns: each access
# keeps its own layout, and at one warp the conversion between them stays
# in the warp (lane shuffles: run-warp-exchange.test).
@triton.jit
def transpose_copy(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    tl.store(y_ptr + rm[:, None] + rn[None, :] * M, x)
