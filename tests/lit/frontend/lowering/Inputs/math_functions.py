import triton
import triton.language as tl
from triton.language.extra import libdevice


# Each function of its own operand, so that no two calls can be merged.
@triton.jit
def math_functions(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.sqrt(x))
    tl.store(out_ptr + BLOCK + offs, tl.sqrt_rn(x + 1))
    tl.store(out_ptr + 2 * BLOCK + offs, tl.rsqrt(x + 2))
    tl.store(out_ptr + 3 * BLOCK + offs, tl.log2(x + 3))
    tl.store(out_ptr + 4 * BLOCK + offs, tl.erf(x + 4))
    tl.store(out_ptr + 5 * BLOCK + offs, libdevice.pow(x + 5, 2.5))
    tl.store(out_ptr + 6 * BLOCK + offs, libdevice.sqrt(x + 6))
    tl.store(out_ptr + 7 * BLOCK + offs, tl.exp2(x + 7))


# The functions that come from a device library, for running on a device.
@triton.jit
def library_math(x_ptr, erf_ptr, pow_ptr, log2_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(erf_ptr + offs, tl.erf(x))
    tl.store(pow_ptr + offs, libdevice.pow(x + 2, 2.5))
    tl.store(log2_ptr + offs, tl.log2(x + 2))


# Inverse trigonometric and hyperbolic functions (FlagGems' acos, atan,
# angle): C library calls each backend maps to its device library.
@triton.jit
def inverse_math(x_ptr, acos_ptr, atan2_ptr, sinh_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(acos_ptr + offs, libdevice.acos(x))
    tl.store(atan2_ptr + offs, libdevice.atan2(x, x + 2))
    tl.store(sinh_ptr + offs, libdevice.sinh(x))


# libdevice's rounding, remainder and classification functions (FlagGems'
# isnan, isinf, finitef, rint, fmod). Inputs in [-1, 1): sqrt(x) is NaN
# exactly where x < 0; x / 0 is infinite everywhere (x is never 0 here).
@triton.jit
def classify_math(x_ptr, rint_ptr, fmod_ptr, nan_ptr, finite_ptr, inf_ptr,
                  BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(rint_ptr + offs, libdevice.rint(x * 8))
    tl.store(fmod_ptr + offs, libdevice.fmod(x * 8, 3.0))
    root = tl.sqrt_rn(x)
    tl.store(nan_ptr + offs, libdevice.isnan(root).to(tl.float32))
    tl.store(finite_ptr + offs, libdevice.finitef(root).to(tl.float32))
    tl.store(inf_ptr + offs, libdevice.isinf(x / 0.0).to(tl.float32))
