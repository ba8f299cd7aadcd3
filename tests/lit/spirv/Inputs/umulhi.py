import triton
import triton.language as tl


# The high half of x * x, for the sizes and signedness of the signature.
@triton.jit
def square_high(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.umulhi(x, x))


# One high half of another, and of a product with a constant.
@triton.jit
def nested_high(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.umulhi(tl.umulhi(x, x), x))


@triton.jit
def constant_high(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.umulhi(x, 3))
