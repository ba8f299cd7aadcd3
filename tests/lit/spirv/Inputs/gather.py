import triton
import triton.language as tl


@triton.jit
def gather_rows(out_ptr, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    src = (rows * N + cols).to(tl.float32)
    if AXIS == 1:
        # Each row read backwards, shifted by its row number.
        index = (N - 1 - cols + rows) % N + rows * 0
    else:
        index = (M - 1 - rows + cols) % M + cols * 0
    tl.store(out_ptr + rows * N + cols, tl.gather(src, index, AXIS))


@triton.jit
def gather_loaded(src_ptr, index_ptr, out_ptr, M: tl.constexpr,
                  N: tl.constexpr, K: tl.constexpr):
    # K of each row's N elements, at indices loaded as int64 (their own
    # layout, converted to the result's).
    rows = tl.arange(0, M)[:, None]
    src = tl.load(src_ptr + rows * N + tl.arange(0, N)[None, :])
    offs = rows * K + tl.arange(0, K)[None, :]
    index = (tl.load(index_ptr + offs) * 7) % N
    tl.store(out_ptr + offs, src.gather(index, 1))


@triton.jit
def gather_uint8(out_ptr, N: tl.constexpr):
    # uint8 indices up to 255 are not negative (Triton zero-extends them).
    offs = tl.arange(0, N)
    index = (N - 1 - offs).to(tl.uint8)
    tl.store(out_ptr + offs, tl.gather(offs.to(tl.float32), index, 0))
