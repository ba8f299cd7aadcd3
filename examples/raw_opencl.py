# Compile with: tlec examples/raw_opencl.py --emit=tile-ir followed by these arguments:
# tlec-args: --kernel clamp_scale_kernel -D BLOCK=1024 --signature '*fp32:16, *fp32:16, fp32, i32'
#
# TLE-Raw, SPIR-V: an OpenCL C function. The spirv plugin compiles it with
# clang-22 (OpenCL C 1.2, target spirv64) to LLVM IR and links it into the
# kernel before LLVM's SPIR-V backend runs, so it inlines and its OpenCL
# built-ins (clamp, mad) become the same SPIR-V instructions as the kernel's.
# A tile operand is seen per element; the scalar `s` is passed to every call.
import torch
import triton
import triton.language as tl
from triton.experimental.tle.raw import dialect
import triton.experimental.tle.language.raw as tle_raw


@dialect(name="opencl", extern_func_name="clamp_scale")
def clamp_scale_cl(x, s) -> tl.float32:
    """
    float clamp_scale(float x, float s) {
      return mad(clamp(x, -1.0f, 1.0f), s, 0.5f);
    }
    """


@triton.jit
def clamp_scale_kernel(x_ptr, out_ptr, s, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tle_raw.call(clamp_scale_cl, [x, s], (tl.float32, (BLOCK, )))
    tl.store(out_ptr + offs, y, mask=mask)


if __name__ == "__main__":
    n = 100000
    x = 2 * torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    clamp_scale_kernel[(triton.cdiv(n, 1024), )](x, out, 3.0, n, BLOCK=1024)
    torch.testing.assert_close(out, x.clamp(-1, 1) * 3.0 + 0.5)
