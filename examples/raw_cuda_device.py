# Compile with: tlec examples/raw_cuda_device.py --emit=tile-ir followed by these arguments:
# tlec-args: --kernel gelu_kernel -D BLOCK=1024 --signature '*fp32:16, *fp32:16, i32'
#
# TLE-Raw, NVIDIA: a CUDA C device function. The nvidia plugin compiles it
# with clang-22 in CUDA mode against the CUDA toolkit's headers to LLVM IR and
# links it into the kernel before optimization, so it inlines (no call in the
# PTX); the CUDA math it uses (tanhf) comes from libdevice like the kernel's.
# The @triton.jit function in the list is the portable fallback: targets
# without CUDA C (SPIR-V, AMD) compile it instead of failing.
import torch
import triton
import triton.language as tl
from triton.experimental.tle.raw import dialect
import triton.experimental.tle.language.raw as tle_raw


@dialect(name="cuda", extern_func_name="gelu_tanh")
def gelu_cuda(x) -> tl.float32:
    """
    __device__ float gelu_tanh(float x) {
      const float k = 0.7978845608028654f;  // sqrt(2 / pi)
      float inner = k * __fmaf_rn(0.044715f * x, x * x, x);
      return 0.5f * x * (1.0f + tanhf(inner));
    }
    """


@triton.jit
def gelu_portable(x):
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    e = tl.exp(2.0 * inner)
    return 0.5 * x * (1.0 + (e - 1.0) / (e + 1.0))


@triton.jit
def gelu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tle_raw.call([gelu_cuda, gelu_portable], [x], (tl.float32, (BLOCK, )))
    tl.store(out_ptr + offs, y, mask=mask)


if __name__ == "__main__":
    n = 100000
    x = torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    gelu_kernel[(triton.cdiv(n, 1024), )](x, out, n, BLOCK=1024)
    torch.testing.assert_close(out, torch.nn.functional.gelu(x, approximate="tanh"))
