import triton
import triton.language as tl
import triton.experimental.tle.language.gpu as tle


@triton.jit
def counters(out_ptr, BLOCK: tl.constexpr, LEVEL: tl.constexpr):
    buf = tle.gpu.alloc((BLOCK,), dtype=tl.int32, scope=LEVEL)
    tl.store(out_ptr, 1)
