# Portable fallbacks used wrongly (tests/lit/frontend/tle/raw_fallback.test).
import triton
import triton.language as tl
from triton.experimental.tle.raw import dialect
import triton.experimental.tle.language.raw as tle_raw


@dialect(name="cuda", extern_func_name="twice")
def twice_cuda(x) -> tl.float32:
    """__device__ float twice(float x) { return 2.0f * x; }"""


@triton.jit
def twice_a(x):
    return 2.0 * x


@triton.jit
def twice_b(x):
    return x + x


@triton.jit
def as_int(x):
    return x.to(tl.int32)


@triton.jit
def two_fallbacks(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    y = tle_raw.call([twice_cuda, twice_a, twice_b], [x], (tl.float32, (BLOCK, )))
    tl.store(x_ptr + tl.arange(0, BLOCK), y)


@triton.jit
def wrong_type(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    y = tle_raw.call([twice_cuda, as_int], [x], (tl.float32, (BLOCK, )))
    tl.store(x_ptr + tl.arange(0, BLOCK), y)
