import triton
import triton.language as tl


# Arithmetic on 8-bit floats, kept in the 8-bit type as Triton keeps it
# (both operands float8e5): the sum, the elementwise maximum and a
# reduction's maximum, each rounded to float8e5.
@triton.jit
def fp8_arith(x_ptr, y_ptr, sum_ptr, max_ptr, rowmax_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(x_ptr + offs).to(tl.float8e5)
    b = tl.load(y_ptr + offs).to(tl.float8e5)
    tl.store(sum_ptr + offs, (a + b).to(tl.float32))
    tl.store(max_ptr + offs, tl.maximum(a, b).to(tl.float32))
    tl.store(rowmax_ptr, tl.max(a, axis=0).to(tl.float32))
