# TLE-Raw on AMD (tests/lit/amd/raw.test): an LLVM IR function, which the amd
# plugin links and inlines, and a HIP function, which needs ROCm's headers.
import triton
import triton.language as tl
from triton.experimental.tle.raw import dialect
import triton.experimental.tle.language.raw as tle_raw


@dialect(name="llvm", extern_func_name="scale_add")
def scale_add_llvm(x, s) -> tl.float32:
    """
    define float @scale_add(float %x, float %s) {
      %m = fmul float %x, %s
      %r = fadd float %m, 1.0
      ret float %r
    }
    """


@triton.jit
def llvm_kernel(x_ptr, s, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, tle_raw.call(scale_add_llvm, [x, s], (tl.float32, (BLOCK, ))))


@dialect(name="hip", extern_func_name="twice")
def twice_hip(x) -> tl.float32:
    """__device__ float twice(float x) { return 2.0f * x; }"""


@triton.jit
def hip_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, tle_raw.call(twice_hip, [x], (tl.float32, (BLOCK, ))))
