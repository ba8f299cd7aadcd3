import triton
import triton.language as tl


# Plain Python helpers that jit code calls at compile time, as FlagGems'
# copysign, cumsum and sort write them.
def _unwrap_if_constexpr(o):
    return o.value if isinstance(o, tl.constexpr) else o


@tl.constexpr
def _get_uint_dtype(num_bits):
    num_bits = _unwrap_if_constexpr(num_bits)
    return tl.core.get_int_dtype(num_bits, False)


@tl.constexpr
def _get_sign_bit_mask(num_bits):
    num_bits = _unwrap_if_constexpr(num_bits)
    return 1 << (num_bits - 1)


@tl.constexpr
def get_accum_type(inp_dtype: tl.dtype) -> tl.dtype:
    if inp_dtype.is_bf16() or inp_dtype.is_fp16():
        return tl.float32
    if inp_dtype.is_int():
        return tl.int64
    else:
        return inp_dtype


# Host code the scanner reads as a helper and drops without a word when it
# is not jit code.
def host_only(path):
    with open(path) as f:
        return [line for line in f]


@triton.jit
def copysign_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    input = tl.load(x_ptr + offs, mask=mask)
    other = tl.load(y_ptr + offs, mask=mask)
    abs_val = tl.abs(input)
    num_bits: tl.constexpr = input.dtype.primitive_bitwidth
    uint_dtype = _get_uint_dtype(num_bits)
    sign_bit_mask: tl.constexpr = _get_sign_bit_mask(num_bits)
    other_u = other.to(uint_dtype, bitcast=True)
    out = tl.where((other_u & sign_bit_mask) != 0, -abs_val, abs_val)
    tl.store(out_ptr + offs, out, mask=mask)


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    acc_dtype: tl.constexpr = get_accum_type(x_ptr.type.element_ty)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * N + offs, mask=offs < N, other=0)
    tl.store(out_ptr + tl.program_id(0), tl.sum(x.to(acc_dtype)))


# A plain def and then a kernel of the same name: the kernel is the name's.
def shadowed(x_ptr):
    return x_ptr


@triton.jit
def shadowed(x_ptr, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)


# Triton's standard-library helper, imported as FlagGems' bitonic sort does.
from triton.language.standard import _log2  # noqa: E402


@triton.jit
def log2_kernel(out, N: tl.constexpr):
    steps: tl.constexpr = _log2(N)
    tl.store(out + tl.arange(0, 4), tl.full((4,), steps, tl.int32))
