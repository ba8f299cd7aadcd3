# Matrix multiplication through tensor descriptors made in the kernel (as
# Triton's persistent-matmul tutorial does, one tile per program here): on
# Hopper the A and B tiles are tensor copies (TMA) into the wgmma's
# swizzled rings; elsewhere they are masked pointer loads. Ragged edges
# read zeros and are not written. EPILOGUE_SUBTILE stores the result as two
# halves of BLOCK_SIZE_N // 2 columns (reshape, permute, split: the
# persistent-matmul tutorial's epilogue subtiling), which moves no data
# between threads.
#
# Compile with: tlec examples/matmul_descriptor.py --emit=tile-ir followed by these arguments:
# tlec-args: --kernel matmul_descriptor_kernel -D BLOCK_SIZE_M=128 -D BLOCK_SIZE_N=128 -D BLOCK_SIZE_K=64 -D GROUP_SIZE_M=8 --signature '*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16'
import triton
import triton.language as tl


@triton.jit
def tile_product(a_desc, b_desc, M, N, K, BLOCK_SIZE_M: tl.constexpr,
                 BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                 GROUP_SIZE_M: tl.constexpr):
    # This program's output tile (grouped ordering, for L2 reuse): its row
    # and column offsets and A's rows times B's columns over K.
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_m = pid_m * BLOCK_SIZE_M
    offs_n = pid_n * BLOCK_SIZE_N
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        offs_k = k * BLOCK_SIZE_K
        a = a_desc.load([offs_m, offs_k])
        b = b_desc.load([offs_k, offs_n])
        accumulator = tl.dot(a, b, accumulator)
    return accumulator, offs_m, offs_n


@triton.jit
def matmul_descriptor_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                             BLOCK_SIZE_M: tl.constexpr,
                             BLOCK_SIZE_N: tl.constexpr,
                             BLOCK_SIZE_K: tl.constexpr,
                             GROUP_SIZE_M: tl.constexpr,
                             EPILOGUE_SUBTILE: tl.constexpr = False):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1],
                                       block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1],
                                       block_shape=[BLOCK_SIZE_K, BLOCK_SIZE_N])
    c_desc = tl.make_tensor_descriptor(
        c_ptr, shape=[M, N], strides=[N, 1],
        block_shape=[BLOCK_SIZE_M,
                     BLOCK_SIZE_N // 2 if EPILOGUE_SUBTILE else BLOCK_SIZE_N])
    accumulator, offs_m, offs_n = tile_product(
        a_desc, b_desc, M, N, K, BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K,
        GROUP_SIZE_M)
    if EPILOGUE_SUBTILE:
        acc = tl.reshape(accumulator, (BLOCK_SIZE_M, 2, BLOCK_SIZE_N // 2))
        acc0, acc1 = tl.split(tl.permute(acc, (0, 2, 1)))
        c_desc.store([offs_m, offs_n], acc0.to(c_desc.dtype))
        c_desc.store([offs_m, offs_n + BLOCK_SIZE_N // 2],
                     acc1.to(c_desc.dtype))
    else:
        c_desc.store([offs_m, offs_n], accumulator.to(c_desc.dtype))


@triton.jit
def matmul_host_descriptor_kernel(a_desc, b_desc, c_desc, M, N, K,
                                  BLOCK_SIZE_M: tl.constexpr,
                                  BLOCK_SIZE_N: tl.constexpr,
                                  BLOCK_SIZE_K: tl.constexpr,
                                  GROUP_SIZE_M: tl.constexpr):
    # The same product through descriptors the host made (Triton's
    # TensorDescriptor; signature type tensordesc<fp16[128, 64]>), as
    # Triton's matmul tutorial launches it where the GPU has TMA.
    accumulator, offs_m, offs_n = tile_product(
        a_desc, b_desc, M, N, K, BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K,
        GROUP_SIZE_M)
    c_desc.store([offs_m, offs_n], accumulator.to(c_desc.dtype))
