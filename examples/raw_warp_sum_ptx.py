# Compile with: tlec examples/raw_warp_sum_ptx.py --emit=tile-ir followed by these arguments:
# tlec-args: --kernel warp_sum_kernel -D BLOCK=128 --num-warps 4 --signature '*i32, *i32, i32'
#
# TLE-Raw, NVIDIA: a warp-level reduction written in inline PTX. Every thread
# passes its element of `x` (BLOCK = 32 x num_warps: one element per thread,
# thread t holds element t); five butterfly shuffles (shfl.sync.bfly) add up
# the 32 values of the warp, and every lane gets the warp's sum. So out[i] is
# the sum of the 32 elements x[32*(i//32) : 32*(i//32) + 32].
# Scalars and temporaries stay in registers: `{ .reg ... }` scopes them.
import torch
import triton
import triton.language as tl
from triton.experimental.tle.raw import dialect
import triton.experimental.tle.language.raw as tle_raw


@dialect(name="ptx", constraints="=r,r")
def warp_sum_ptx(x) -> tl.int32:
    """{
    .reg .b32 t;
    mov.b32 $0, $1;
    shfl.sync.bfly.b32 t, $0, 16, 31, -1;
    add.s32 $0, $0, t;
    shfl.sync.bfly.b32 t, $0, 8, 31, -1;
    add.s32 $0, $0, t;
    shfl.sync.bfly.b32 t, $0, 4, 31, -1;
    add.s32 $0, $0, t;
    shfl.sync.bfly.b32 t, $0, 2, 31, -1;
    add.s32 $0, $0, t;
    shfl.sync.bfly.b32 t, $0, 1, 31, -1;
    add.s32 $0, $0, t;
    }"""


@triton.jit
def warp_sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    s = tle_raw.call(warp_sum_ptx, [x], (tl.int32, (BLOCK, )))
    tl.store(out_ptr + offs, s, mask=mask)


if __name__ == "__main__":
    n = 4096
    x = torch.randint(-100, 100, (n, ), device="cuda", dtype=torch.int32)
    out = torch.empty_like(x)
    warp_sum_kernel[(n // 128, )](x, out, n, BLOCK=128, num_warps=4)
    ref = x.view(-1, 32).sum(1, dtype=torch.int32).repeat_interleave(32)
    torch.testing.assert_close(out, ref)
