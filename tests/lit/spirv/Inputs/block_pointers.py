# Block pointers (Triton 3.6's tl.make_block_ptr and tl.advance), as real
# kernels of that Triton write them.
import triton
import triton.language as tl


@triton.jit
def matmul_block_ptr(a_ptr, b_ptr, c_ptr, M, N, K, stride_bk, stride_bn,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                     BLOCK_K: tl.constexpr, B_COLUMN_MAJOR: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_block_ptr = tl.make_block_ptr(base=a_ptr, shape=(M, K), strides=(K, 1),
                                    offsets=(pid_m * BLOCK_M, 0),
                                    block_shape=(BLOCK_M, BLOCK_K), order=(1, 0))
    b_block_ptr = tl.make_block_ptr(base=b_ptr, shape=(K, N),
                                    strides=(stride_bk, stride_bn),
                                    offsets=(0, pid_n * BLOCK_N),
                                    block_shape=(BLOCK_K, BLOCK_N),
                                    order=(0, 1) if B_COLUMN_MAJOR else (1, 0))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_block_ptr, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_block_ptr, boundary_check=(0, 1))
        acc += tl.dot(a, b)
        a_block_ptr = tl.advance(a_block_ptr, (0, BLOCK_K))
        b_block_ptr = b_block_ptr.advance((BLOCK_K, 0))
    c_block_ptr = tl.make_block_ptr(base=c_ptr, shape=(M, N), strides=(N, 1),
                                    offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N),
                                    block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    tl.store(c_block_ptr, acc.to(tl.float16), boundary_check=(0, 1))


@triton.jit
def shifted_nan(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # Element i of the output is x[i - 1]; x[-1] reads as NaN.
    start = tl.program_id(0) * BLOCK
    src = tl.make_block_ptr(x_ptr, (n,), (1,), (start - 1,), (BLOCK,), (0,))
    dst = tl.make_block_ptr(out_ptr, (n,), (1,), (start,), (BLOCK,), (0,))
    x = tl.load(src, boundary_check=(0,), padding_option="nan")
    tl.store(dst, tl.where(x != x, -7.0, x), boundary_check=(0,))


@triton.jit
def copy_checked_rows(x_ptr, out_ptr, rows, cols, stride,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Only the rows are checked: columns past `cols` (up to `stride`) are
    # read and written as they are, as Triton does.
    offsets = (tl.program_id(0) * BLOCK_M, tl.program_id(1) * BLOCK_N)
    src = tl.make_block_ptr(x_ptr, (rows, cols), (stride, 1), offsets,
                            (BLOCK_M, BLOCK_N), (1, 0))
    dst = tl.make_block_ptr(out_ptr, (rows, cols), (stride, 1), offsets,
                            (BLOCK_M, BLOCK_N), (1, 0))
    tl.store(dst, tl.load(src, boundary_check=(0,)), boundary_check=(0,))


@triton.jit
def shifted_unchecked(x_ptr, out_ptr, BLOCK: tl.constexpr):
    # No boundary_check: nothing is masked, not even the coordinate -1 of
    # the first block (x_ptr + 2 - 1 is x[1]): out[i] = x[i + 1].
    start = tl.program_id(0) * BLOCK
    src = tl.make_block_ptr(x_ptr + 2, (BLOCK,), (1,), (start - 1,), (BLOCK,),
                            (0,))
    tl.store(out_ptr + start + tl.arange(0, BLOCK), tl.load(src))


@triton.jit
def advance_in_branches(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # A while loop carries a (block pointer, count) tuple; an if advances
    # the block pointer on odd counts: block i of the output is block
    # 0, 1, 1, 2 of x.
    state = (tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (BLOCK,), (0,)), 0)
    while state[1] < 4:
        b, i = state
        if i % 2 == 1:
            b = tl.advance(b, (BLOCK,))
        tl.store(out_ptr + i * BLOCK + tl.arange(0, BLOCK),
                 tl.load(b, boundary_check=(0,)))
        state = (b, i + 1)
