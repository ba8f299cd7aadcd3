"""Kernels through tensor descriptors (tl.make_tensor_descriptor): tiles that
reach past the tensor's edges read as the padding and are not written."""
import triton
import triton.language as tl


@triton.jit
def scale_tiles(x_ptr, y_ptr, M, N, BLOCK_M: tl.constexpr,
                BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    y_desc = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[N, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    tile = x_desc.load([pid_m * BLOCK_M, pid_n * BLOCK_N])
    y_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], tile * 2.0 + 1.0)


@triton.jit
def matmul_descriptors(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr,
                       BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1],
                                       block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1],
                                       block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    # The last K step reaches past K: its padding zeros add nothing.
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
        b = b_desc.load([k * BLOCK_K, pid_n * BLOCK_N])
        acc = tl.dot(a, b, acc)
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(tl.float16))


@triton.jit
def shifted_nan(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    # Each tile starts one element early: the first program's element -1 is
    # outside the tensor and reads as NaN, which the store replaces by -7.
    pid = tl.program_id(0)
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[N], strides=[1],
                                       block_shape=[BLOCK],
                                       padding_option="nan")
    y_desc = tl.make_tensor_descriptor(y_ptr, shape=[N], strides=[1],
                                       block_shape=[BLOCK])
    tile = x_desc.load([pid * BLOCK - 1])
    y_desc.store([pid * BLOCK], tl.where(tile != tile, -7.0, tile))


@triton.jit
def matmul_host_descriptors(a_desc, b_desc, c_desc, BLOCK_M: tl.constexpr,
                            BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # The descriptors come from the host (Triton's TensorDescriptor; the
    # signature's tensordesc<T[...]>): K is A's second dimension.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(a_desc.shape[1], BLOCK_K)):
        a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
        b = b_desc.load([k * BLOCK_K, pid_n * BLOCK_N])
        acc = tl.dot(a, b, acc)
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(c_desc.dtype))
