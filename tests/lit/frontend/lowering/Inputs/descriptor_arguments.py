import triton
import triton.language as tl


@triton.jit
def scale_tiles(x_desc, y_desc, n, BLOCK_M: tl.constexpr,
                BLOCK_N: tl.constexpr):
    m = tl.program_id(0) * BLOCK_M
    k = tl.program_id(1) * BLOCK_N
    tile = x_desc.load([m, k]) * x_desc.shape[0] + x_desc.strides[0]
    y_desc.store([m, k], tile + n)


@triton.jit
def clash(x_desc, x_desc_shape0):
    x_desc.store([0], x_desc.load([0]) + x_desc_shape0)
