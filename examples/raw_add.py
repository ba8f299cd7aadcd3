# Compile with: tlec examples/raw_add.py --emit=tile-ir followed by these arguments:
# tlec-args: --kernel raw_add_kernel -D BLOCK=256 --signature '*i32:16, *i32:16, *i32:16, i32'
#
# TLE-Raw: one operation written natively three times, as a PTX instruction
# for NVIDIA GPUs, an AMDGCN instruction for AMD GPUs and an OpenCL C
# function for SPIR-V devices. tle_raw.call carries all variants; each
# backend picks the one its toolchain accepts.
# Native code sees a tile per thread: every thread passes its own elements.
import torch
import triton
import triton.language as tl
from triton.experimental.tle.raw import dialect
import triton.experimental.tle.language.raw as tle_raw


@dialect(name="ptx", constraints="=r,r,r")
def add_ptx(a, b) -> tl.int32:
    """add.s32 $0, $1, $2;"""


@dialect(name="amdgcn", constraints="=v,v,v")
def add_amdgcn(a, b) -> tl.int32:
    """v_add_u32 $0, $1, $2"""


@dialect(name="opencl", extern_func_name="add_i32")
def add_opencl(a, b) -> tl.int32:
    """
    int add_i32(int a, int b) { return a + b; }
    """


@triton.jit
def raw_add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    y = tl.load(y_ptr + offs, mask=mask, other=0)
    # The annotations give one int32 per thread's element; for tiles the
    # result type is given with its shape.
    out = tle_raw.call([add_ptx, add_amdgcn, add_opencl], [x, y],
                       (tl.int32, (BLOCK, )))
    tl.store(out_ptr + offs, out, mask=mask)


if __name__ == "__main__":
    x = torch.randint(0, 100, (1000, ), device="cuda", dtype=torch.int32)
    y = torch.randint(0, 100, (1000, ), device="cuda", dtype=torch.int32)
    out = torch.empty_like(x)
    raw_add_kernel[(triton.cdiv(1000, 256), )](x, y, out, 1000, BLOCK=256)
    torch.testing.assert_close(out, x + y)
