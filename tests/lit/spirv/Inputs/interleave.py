import triton
import triton.language as tl


# tl.interleave of two blocks, as a function and as a tensor method.
@triton.jit
def interleave(x_ptr, y_ptr, z_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    z = tl.interleave(tl.load(x_ptr + offs), tl.load(y_ptr + offs))
    tl.store(z_ptr + tl.arange(0, 2 * BLOCK), z)


@triton.jit
def interleave_rows(x_ptr, y_ptr, z_ptr, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    z = tl.load(x_ptr + offs).interleave(tl.load(y_ptr + offs))
    rows = tl.arange(0, R)[:, None] * (2 * C)
    tl.store(z_ptr + rows + tl.arange(0, 2 * C)[None, :], z)


# The even and the odd elements of a block, through reshape and split.
@triton.jit
def deinterleave(z_ptr, x_ptr, y_ptr, BLOCK: tl.constexpr):
    z = tl.load(z_ptr + tl.arange(0, 2 * BLOCK))
    x, y = tl.split(tl.reshape(z, (BLOCK, 2)))
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, x)
    tl.store(y_ptr + offs, y)
