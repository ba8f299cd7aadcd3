# Kernels that tle.gpu.warp_specialize cannot compile; see
# ../warp-specialize-errors.test.
import triton
import triton.language as tl
import triton.experimental.tle as tle


@triton.jit
def _store(out_ptr, v, BLOCK: tl.constexpr):
    tl.store(out_ptr + tl.arange(0, BLOCK), v)


@triton.jit
def _idle(out_ptr):
    tl.store(out_ptr, 0)


@triton.jit
def tile_from_outside(x_ptr, out_ptr, BLOCK: tl.constexpr):
    v = tl.load(x_ptr + tl.arange(0, BLOCK))
    tle.gpu.warp_specialize([(_store, (out_ptr, v, BLOCK)), (_idle, (out_ptr, ))], [1])


@triton.jit
def simple(x_ptr, out_ptr, BLOCK: tl.constexpr):
    tle.gpu.warp_specialize([(_idle, (out_ptr, )), (_idle, (x_ptr, ))], [1])
