# TLE-Raw: a native function written in CUDA, called from a jit kernel.
import triton
import triton.language as tl
import triton.experimental.tle.language.raw as tle_raw
from triton.experimental.tle.raw import dialect
from triton import jit as kernel_jit

SCALE = 2.0
USE_FAST: tl.constexpr = True


@dialect(name="cuda", extern_func_name="scale_add")
def scale_add(x, y, out, n: int):
    """
    __device__ void scale_add(const float *x, const float *y, float *out, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) out[i] = 2.0f * x[i] + y[i];
    }
    """


@dialect(name="ptx", file="scale_add.ptx")
def scale_add_ptx(x, y, out, n):
    pass


@kernel_jit
def caller(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr = 128):
    tle_raw.call(scale_add, [x_ptr, y_ptr, out_ptr, n])
