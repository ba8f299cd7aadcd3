import triton
import triton.language as tl
from triton.language.extra import libdevice
from triton.language.extra.cuda import libdevice as cuda_libdevice


@triton.jit
def exponentials(x_ptr, h_ptr, out_ptr, hout_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    h = tl.load(h_ptr + offs)
    tl.store(out_ptr + offs, tl.exp(x))
    tl.store(out_ptr + BLOCK + offs, tl.math.exp(x))
    tl.store(out_ptr + 2 * BLOCK + offs, libdevice.exp(x))
    tl.store(out_ptr + 3 * BLOCK + offs, libdevice.exp2(x))
    tl.store(out_ptr + 4 * BLOCK + offs, cuda_libdevice.exp(x))
    tl.store(hout_ptr + offs, tl.exp(h))
