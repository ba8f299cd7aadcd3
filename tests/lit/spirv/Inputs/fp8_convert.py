import triton
import triton.language as tl


@triton.jit
def fp8_round_trip(x_ptr, e4_ptr, e4_back_ptr, e5_ptr, e5_back_ptr, rtz_ptr,
                   n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    e4 = x.to(tl.float8e4nv)
    tl.store(e4_ptr + offs, e4, mask=mask)
    tl.store(e4_back_ptr + offs, e4.to(tl.float32), mask=mask)
    e5 = x.to(tl.float8e5)
    tl.store(e5_ptr + offs, e5, mask=mask)
    tl.store(e5_back_ptr + offs, e5.to(tl.float16).to(tl.float32), mask=mask)
    tl.store(rtz_ptr + offs,
             x.to(tl.float8e4nv, fp_downcast_rounding="rtz"), mask=mask)

