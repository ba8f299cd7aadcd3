import triton
import triton.language as tl


@triton.jit
def sort_rows(out_ptr, M: tl.constexpr, N: tl.constexpr,
              DESCENDING: tl.constexpr):
    # Each row holds a permutation of -N/2 .. N/2 - 1 (37 is odd).
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    x = ((cols * 37 + rows * 11) % N - N // 2).to(tl.float32)
    tl.store(out_ptr + rows * N + cols, tl.sort(x, descending=DESCENDING))


@triton.jit
def topk_rows(out_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    x = (cols * 37 + rows * 11) % N
    kcols = tl.arange(0, K)[None, :]
    tl.store(out_ptr + rows * K + kcols, tl.topk(x, K))


@triton.jit
def flip_rows(out_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = offs.to(tl.float32)
    tl.store(out_ptr + offs, x.flip(1))


@triton.jit
def bitwise_reductions(xor_ptr, or_ptr, M: tl.constexpr, N: tl.constexpr):
    # Per row r: r at column 5, bits 1024 and 2048 once, 4096 twice; the
    # xor is r + 3072, the or r + 7168 (a sum would give r + 11264).
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    x = tl.where(cols == 5, rows, 0) + tl.where(cols == 9, 1024, 0) + \
        tl.where(cols == 20, 2048, 0) + tl.where((cols == 30) | (cols == 31),
                                                 4096, 0)
    tl.store(xor_ptr + tl.arange(0, M), tl.xor_sum(x, 1))
    tl.store(or_ptr + tl.arange(0, M), tl.reduce_or(x, axis=1))


@triton.jit
def swizzle(out_ptr, SIZE_I: tl.constexpr, SIZE_J: tl.constexpr,
            SIZE_G: tl.constexpr):
    i = tl.arange(0, SIZE_I)[:, None]
    j = tl.arange(0, SIZE_J)[None, :]
    new_i, new_j = tl.swizzle2d(i, j, SIZE_I, SIZE_J, SIZE_G)
    tl.store(out_ptr + i * SIZE_J + j, new_i * SIZE_J + new_j)


@triton.jit
def softmax_peak(out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.where(offs == 0, 0.0, -1000.0)
    tl.store(out_ptr + offs, tl.softmax(x))
