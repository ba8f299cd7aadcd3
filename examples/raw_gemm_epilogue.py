# Compile with: tlec examples/raw_gemm_epilogue.py --emit=tile-ir followed by these arguments:
# tlec-args: --kernel gemm_epilogue_kernel -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=32 --signature '*fp16:16, *fp16:16, *fp32:16, *fp32:16, fp32, i32, i32, i32, i32, i32, i32, i32, i32, i32'
#
# TLE-Raw in a GEMM: the epilogue is a native function. The fp32 accumulator
# tile of tl.dot, a bias row broadcast over it and a scalar flow into native
# code, and its result tile flows back into the kernel, which stores it:
#     c = gelu(alpha * (a @ b) + bias)
# Native code sees the tiles per thread: it is called once for every element
# a thread holds under the accumulator's layout (mma fragments on NVIDIA),
# with the bias element of the same (row, column) and the scalar. Variants:
# CUDA C for NVIDIA, OpenCL C for SPIR-V devices, and a portable @triton.jit
# fallback for everything else (AMD here).
import torch
import triton
import triton.language as tl
from triton.experimental.tle.raw import dialect
import triton.experimental.tle.language.raw as tle_raw


@dialect(name="cuda", extern_func_name="epilogue")
def epilogue_cuda(acc, bias, alpha) -> tl.float32:
    """
    __device__ float epilogue(float acc, float bias, float alpha) {
      float x = __fmaf_rn(alpha, acc, bias);
      return 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
    }
    """


@dialect(name="opencl", extern_func_name="epilogue")
def epilogue_opencl(acc, bias, alpha) -> tl.float32:
    """
    float epilogue(float acc, float bias, float alpha) {
      float x = fma(alpha, acc, bias);
      return 0.5f * x * (1.0f + tanh(0.7978845608f * (x + 0.044715f * x * x * x)));
    }
    """


@triton.jit
def epilogue_portable(acc, bias, alpha):
    x = alpha * acc + bias
    e = tl.exp(2.0 * 0.7978845608 * (x + 0.044715 * x * x * x))
    return 0.5 * x * (1.0 + (e - 1.0) / (e + 1.0))


@triton.jit
def gemm_epilogue_kernel(a_ptr, b_ptr, bias_ptr, c_ptr, alpha, M, N, K,
                         stride_am, stride_ak, stride_bk, stride_bn,
                         stride_cm, stride_cn,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                         BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_m[:, None] % M) * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + (offs_n[None, :] % N) * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    bias = tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0)
    bias2 = tl.broadcast_to(bias[None, :], (BLOCK_M, BLOCK_N))
    c = tle_raw.call([epilogue_cuda, epilogue_opencl, epilogue_portable],
                     [acc, bias2, alpha], (tl.float32, (BLOCK_M, BLOCK_N)))
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, c, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


if __name__ == "__main__":
    M, N, K = 512, 384, 256
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)
    bias = torch.randn(N, device="cuda")
    c = torch.empty(M, N, device="cuda")
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
    gemm_epilogue_kernel[grid](a, b, bias, c, 0.5, M, N, K, a.stride(0), a.stride(1),
                               b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                               BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
    ref = torch.nn.functional.gelu(0.5 * (a.float() @ b.float()) + bias, approximate="tanh")
    torch.testing.assert_close(c, ref, atol=2e-2, rtol=2e-2)
