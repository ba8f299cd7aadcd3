import triton
import triton.language as tl


@triton.jit
def divisions(x_ptr, y_ptr, h_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    h = tl.load(h_ptr + offs)
    tl.store(out_ptr + offs, x / y)
    tl.store(out_ptr + BLOCK + offs, tl.math.div_rn(x, y))
    tl.store(out_ptr + 2 * BLOCK + offs, tl.fdiv(x, y))
    tl.store(out_ptr + 3 * BLOCK + offs, tl.fdiv(x, y, ieee_rounding=True))
    tl.store(out_ptr + 4 * BLOCK + offs, (h / h).to(tl.float32))
    tl.store(out_ptr + 5 * BLOCK + offs, tl.sigmoid(x))
