import triton
import triton.language as tl


# An optional operand as FlagGems' layer norm takes it: a pointer argument
# that may be None. A pointer that is passed is never None.
@triton.jit
def scale_kernel(x_ptr, w_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    if w_ptr is None:
        w = 1.0
    else:
        w = tl.load(w_ptr + offs)
    if w_ptr is not None:
        x = x + 1.0
    tl.store(x_ptr + offs, x * w)
