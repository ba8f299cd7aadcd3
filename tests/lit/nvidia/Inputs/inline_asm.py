import triton
import triton.language as tl


@triton.jit
def funnel_shift(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    z = tl.inline_asm_elementwise(
        asm="shf.l.wrap.b32 $0, $1, $2, $3;", constraints="=r,r,r,r",
        args=[x, y, 3], dtype=tl.uint32, is_pure=True, pack=1)
    tl.store(out_ptr + offs, z)


@triton.jit
def two_results(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    lo, hi = tl.inline_asm_elementwise(
        "mov.b64 {$0, $1}, $2;", "=r,=r,l", [x], dtype=(tl.int32, tl.int32),
        is_pure=True, pack=1)
    tl.store(out_ptr + offs, lo + hi)


@triton.jit
def fma_scalar(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    z = tl.inline_asm_elementwise("fma.rn.f32 $0, $1, $2, $3;", "=f,f,f,f",
                                  [x, 2.0, y], dtype=tl.float32,
                                  is_pure=True, pack=1)
    tl.store(out_ptr + offs, z)


@triton.jit
def packed(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    z = tl.inline_asm_elementwise("cvt.rn.f16x2.f32 $0, $1, $2;", "=r,r,r",
                                  [x, x], dtype=tl.int32, is_pure=True,
                                  pack=2)
    tl.store(x_ptr + offs, z)


@triton.jit
def one_tuple(x_ptr, BLOCK: tl.constexpr):
    # A tuple of one dtype gives a tuple of one result, as in Triton.
    offs = tl.arange(0, BLOCK)
    res = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r",
                                    [tl.load(x_ptr + offs)],
                                    dtype=(tl.float32,), is_pure=True, pack=1)
    tl.store(x_ptr + offs, res[0])
