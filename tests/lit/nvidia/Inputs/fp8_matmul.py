# C = A @ B on 8-bit floats with an fp32 accumulator: A is M x K row-major;
# B is K x N with strides (stride_bk, stride_bn), K-major when stride_bk is
# 1 (B given as its transpose, as Triton's matmul tutorial passes fp8 B).
import triton
import triton.language as tl


@triton.jit
def fp8_matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_bk, stride_bn,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
               BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)
