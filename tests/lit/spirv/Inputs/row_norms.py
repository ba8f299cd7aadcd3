import triton
import triton.language as tl


# FlagGems' l2_norm_kernel: BLOCK_M rows per program, each row's norm
# stored as a [BLOCK_M, 1] column, whose pointers layout assignment lays
# out apart from the reduction's result.
@triton.jit
def row_norms(X, Out, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    X = X + pid * N
    Out = Out + pid
    row_mask = pid < M
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)[None, :]
        mask = row_mask and cols < N
        x = tl.load(X + cols, mask, other=0.0).to(tl.float32)
        acc += x * x
    out = tl.sqrt(tl.sum(acc, axis=1))[:, None]
    tl.store(Out, out, row_mask)
