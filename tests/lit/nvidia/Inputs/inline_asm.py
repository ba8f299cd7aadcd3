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
def packed(a_ptr, b_ptr, c_ptr, d_ptr, BLOCK: tl.constexpr):
    # Triton's documented example: four uint8 in one register ($8), four
    # fp32 in four ($9-$12); per element the uint8 as int32 and the max of
    # it (as fp32) and b.
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    (c, d) = tl.inline_asm_elementwise(
        asm="""
        {
            .reg .b8 tmp<4>;
            mov.b32 {tmp0, tmp1, tmp2, tmp3}, $8;
            cvt.u32.u8 $0, tmp0;
            cvt.u32.u8 $1, tmp1;
            cvt.u32.u8 $2, tmp2;
            cvt.u32.u8 $3, tmp3;
        }
        cvt.rn.f32.s32 $4, $0;
        cvt.rn.f32.s32 $5, $1;
        cvt.rn.f32.s32 $6, $2;
        cvt.rn.f32.s32 $7, $3;
        max.f32 $4, $4, $9;
        max.f32 $5, $5, $10;
        max.f32 $6, $6, $11;
        max.f32 $7, $7, $12;
        """,
        constraints="=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,r",
        args=[a, b], dtype=(tl.int32, tl.float32), is_pure=True, pack=4)
    tl.store(c_ptr + offs, c)
    tl.store(d_ptr + offs, d)


@triton.jit
def to_half_pairs(x_ptr, y_ptr, BLOCK: tl.constexpr):
    # Two fp32 in, one register of two fp16 out (the fp32 -> fp16 pairs of
    # Triton kernels' hand-written conversions).
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("cvt.rn.f16x2.f32 $0, $2, $1;", "=r,r,r",
                                  [x], dtype=tl.float16, is_pure=True, pack=2)
    tl.store(y_ptr + offs, y)


@triton.jit
def bad_pack(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x],
                                  dtype=tl.int8, is_pure=True, pack=6)
    tl.store(x_ptr + offs, y)


@triton.jit
def one_tuple(x_ptr, BLOCK: tl.constexpr):
    # A tuple of one dtype gives a tuple of one result, as in Triton.
    offs = tl.arange(0, BLOCK)
    res = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r",
                                    [tl.load(x_ptr + offs)],
                                    dtype=(tl.float32,), is_pure=True, pack=1)
    tl.store(x_ptr + offs, res[0])


@triton.jit
def miscounted(x_ptr, BLOCK: tl.constexpr):
    # Two fp16 share one register at pack=2: "=r,r,r" lists one input too many.
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r,r", [x],
                                  dtype=tl.float16, is_pure=True, pack=2)
    tl.store(x_ptr + offs, y)


@triton.jit
def bool_pack(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs) > 0
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x],
                                  dtype=tl.int32, is_pure=True, pack=4)
    tl.store(y_ptr + offs, y)
