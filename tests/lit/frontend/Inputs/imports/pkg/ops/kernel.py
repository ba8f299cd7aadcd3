# A kernel that calls jit functions of another module of its package, the
# way FlagGems calls flag_gems.utils.triton_lang_extension: through a module
# alias, a name imported from the module, and as a reduction's combiner.
import triton
import triton.language as tl

from pkg import helpers as hp
from pkg.helpers import scale


@triton.jit
def scaled_max_kernel(x_ptr, y_ptr, max_ptr, BLOCK: tl.constexpr):
    pid = hp.program_id64(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, scale(x))
    tl.store(max_ptr + pid, tl.reduce(x, 0, hp.maximum))


@triton.jit
def missing_kernel(x_ptr):
    tl.store(x_ptr, hp.not_there(1.0))


# A scalar pointer's `.type.element_ty` is its pointee (FlagGems' argmax).
@triton.jit
def lowest_kernel(f_ptr, i_ptr):
    tl.store(f_ptr, hp.lowest(f_ptr.type.element_ty))
    tl.store(i_ptr, hp.lowest(i_ptr.type.element_ty))


@triton.jit
def block_type_kernel(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr, x.type.element_ty)


@triton.jit
def uniform_kernel(out_ptr, seed, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, hp.uniform(tl.randint(seed, offs)))


# A library function through a re-exported, device-probed module (FlagGems:
# `from flag_gems.utils import tl_extra_shim`, `_tanh = tl_extra_shim.tanh`).
from pkg import math_lib  # noqa: E402

_tanh = math_lib.tanh


@triton.jit
def shim_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, _tanh(tl.load(x_ptr + offs)))


# Relative imports, as FlagGems' ops modules write them
# (`from ..utils import triton_lang_extension as tle`).
from .. import helpers as rel_hp  # noqa: E402
from ..helpers import scale as rel_scale  # noqa: E402


@triton.jit
def relative_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = rel_hp.program_id64(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, rel_scale(tl.load(x_ptr + offs)))
