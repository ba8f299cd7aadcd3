# Bad native code, one kernel per mistake (tests/lit/nvidia/raw-errors.test).
import triton
import triton.language as tl
from triton.experimental.tle.raw import dialect
import triton.experimental.tle.language.raw as tle_raw


@dialect(name="ptx", constraints="=r,r")
def bad_ptx(x) -> tl.int32:
    """{
    .reg .b32 t;
    add.s33 t, $1, 1;
    mov.b32 $0, t;
    }"""


@triton.jit
def bad_ptx_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, tle_raw.call(bad_ptx, [x], (tl.int32, (BLOCK, ))))


@dialect(name="cuda", extern_func_name="twice")
def bad_cuda(x) -> tl.float32:
    """
    __device__ float twice(float x) {
      return 2.0f * y;
    }
    """


@triton.jit
def bad_cuda_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, tle_raw.call(bad_cuda, [x], (tl.float32, (BLOCK, ))))


@dialect(name="cuda", extern_func_name="thrice")
def wrong_entry(x) -> tl.float32:
    """__device__ float twice(float x) { return 2.0f * x; }"""


@triton.jit
def wrong_entry_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, tle_raw.call(wrong_entry, [x], (tl.float32, (BLOCK, ))))


@dialect(name="cuda", extern_func_name="twice")
def wrong_type(x) -> tl.float32:
    """__device__ double twice(double x) { return 2.0 * x; }"""


@triton.jit
def wrong_type_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, tle_raw.call(wrong_type, [x], (tl.float32, (BLOCK, ))))


@dialect(name="llvm", extern_func_name="twice")
def bad_llvm(x) -> tl.float32:
    """
    define float @twice(float %x) {
      %y = fmul float %x, 2.0
      ret float %z
    }
    """


@triton.jit
def bad_llvm_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, tle_raw.call(bad_llvm, [x], (tl.float32, (BLOCK, ))))
