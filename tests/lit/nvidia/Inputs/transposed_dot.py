"""tl.dot(a, tl.trans(bt)): used by nvidia/transposed-dot.test. (On
cpu-spirv, LLVM 22's SPIR-V backend turns this kernel into SPIR-V that
spirv-val refuses: an OpBitwiseAnd of 32-bit type on the 64-bit local id,
which the backend introduces itself; so no CPU run test yet.)"""
import triton
import triton.language as tl


@triton.jit
def matmul_bt(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr,
              BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # B (K x N, row-major) read as N x K tiles, then transposed for the dot,
    # as kernels that keep B^T (tutorial 09's b.T) do.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        offs_k = k * BLOCK_K + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + offs_m[:, None] * K + offs_k[None, :],
                    mask=(offs_m[:, None] < M) & (offs_k[None, :] < K),
                    other=0.0)
        bt = tl.load(b_ptr + offs_k[None, :] * N + offs_n[:, None],
                     mask=(offs_n[:, None] < N) & (offs_k[None, :] < K),
                     other=0.0)
        acc = tl.dot(a, tl.trans(bt), acc)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc.to(tl.float16),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))
