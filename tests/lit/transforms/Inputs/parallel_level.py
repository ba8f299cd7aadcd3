# A kernel that distributes over a parallel level by name (tle.dsa.parallel).
import triton
import triton.language as tl
import triton.experimental.tle as tle


@triton.jit
def per_core(out_ptr, BLOCK: tl.constexpr):
    for core in tle.dsa.parallel(0, 4, level="core"):
        tl.store(out_ptr + core * BLOCK + tl.arange(0, BLOCK), 1)
