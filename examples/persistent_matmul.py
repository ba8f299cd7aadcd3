# Persistent matrix multiplication through tensor descriptors, as Triton's
# persistent-matmul tutorial (09-persistent-matmul.py,
# matmul_kernel_descriptor_persistent) writes it: NUM_SMS programs walk the
# output tiles, B is stored N x K and read transposed, and the epilogue may
# store the accumulator as two column halves (EPILOGUE_SUBTILE). On the
# H200 each tile's K loop copies A and B with TMA into swizzled rings whose
# barriers are set up per tile; elsewhere they are masked pointer loads.
# flatten and warp_specialize are accepted and do nothing yet: the next
# tile's loads do not overlap this tile's epilogue.
#
# Compile with: tlec examples/persistent_matmul.py --emit=tile-ir followed by these arguments:
# tlec-args: --kernel matmul_kernel_descriptor_persistent -D BLOCK_SIZE_M=32 -D BLOCK_SIZE_N=32 -D BLOCK_SIZE_K=32 -D GROUP_SIZE_M=8 -D EPILOGUE_SUBTILE=0 -D NUM_SMS=132 -D WARP_SPECIALIZE=0 --signature '*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16'
import triton
import triton.language as tl


@triton.jit
def _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M, NUM_SMS):
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (tile_id % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def _persistent_tiles(a_desc, b_desc, c_desc, M, N, K,
                      BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                      BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
                      EPILOGUE_SUBTILE: tl.constexpr, NUM_SMS: tl.constexpr,
                      WARP_SPECIALIZE: tl.constexpr):
    dtype = c_desc.dtype
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = num_pid_m * num_pid_n

    # tile_id_c is used in the epilogue to break the dependency between
    # the prologue and the epilogue
    tile_id_c = start_pid - NUM_SMS
    num_pid_in_group = GROUP_SIZE_M * num_pid_n

    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True, warp_specialize=WARP_SPECIALIZE):
        pid_m, pid_n = _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M, NUM_SMS)
        offs_am = pid_m * BLOCK_SIZE_M
        offs_bn = pid_n * BLOCK_SIZE_N

        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for ki in range(k_tiles):
            offs_k = ki * BLOCK_SIZE_K
            a = a_desc.load([offs_am, offs_k])
            b = b_desc.load([offs_bn, offs_k])
            accumulator = tl.dot(a, b.T, accumulator)

        tile_id_c += NUM_SMS
        pid_m, pid_n = _compute_pid(tile_id_c, num_pid_in_group, num_pid_m, GROUP_SIZE_M, NUM_SMS)
        offs_cm = pid_m * BLOCK_SIZE_M
        offs_cn = pid_n * BLOCK_SIZE_N

        if EPILOGUE_SUBTILE:
            acc = tl.reshape(accumulator, (BLOCK_SIZE_M, 2, BLOCK_SIZE_N // 2))
            acc = tl.permute(acc, (0, 2, 1))
            acc0, acc1 = tl.split(acc)
            c0 = acc0.to(dtype)
            c_desc.store([offs_cm, offs_cn], c0)
            c1 = acc1.to(dtype)
            c_desc.store([offs_cm, offs_cn + BLOCK_SIZE_N // 2], c1)
        else:
            c = accumulator.to(dtype)
            c_desc.store([offs_cm, offs_cn], c)


@triton.jit
def matmul_kernel_descriptor_persistent(a_ptr, b_ptr, c_ptr,  #
                                        M, N, K,  #
                                        BLOCK_SIZE_M: tl.constexpr,  #
                                        BLOCK_SIZE_N: tl.constexpr,  #
                                        BLOCK_SIZE_K: tl.constexpr,  #
                                        GROUP_SIZE_M: tl.constexpr,  #
                                        EPILOGUE_SUBTILE: tl.constexpr,  #
                                        NUM_SMS: tl.constexpr,  #
                                        WARP_SPECIALIZE: tl.constexpr,  #
                                        ):
    a_desc = tl.make_tensor_descriptor(
        a_ptr,
        shape=[M, K],
        strides=[K, 1],
        block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K],
    )
    b_desc = tl.make_tensor_descriptor(
        b_ptr,
        shape=[N, K],
        strides=[K, 1],
        block_shape=[BLOCK_SIZE_N, BLOCK_SIZE_K],
    )
    c_desc = tl.make_tensor_descriptor(
        c_ptr,
        shape=[M, N],
        strides=[N, 1],
        block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N if not EPILOGUE_SUBTILE else BLOCK_SIZE_N // 2],
    )

    _persistent_tiles(a_desc, b_desc, c_desc, M, N, K, BLOCK_SIZE_M,
                      BLOCK_SIZE_N, BLOCK_SIZE_K, GROUP_SIZE_M,
                      EPILOGUE_SUBTILE, NUM_SMS, WARP_SPECIALIZE)


@triton.jit
def matmul_kernel_host_descriptor_persistent(a_desc, b_desc, c_desc,  #
                                             M, N, K,  #
                                             BLOCK_SIZE_M: tl.constexpr,  #
                                             BLOCK_SIZE_N: tl.constexpr,  #
                                             BLOCK_SIZE_K: tl.constexpr,  #
                                             GROUP_SIZE_M: tl.constexpr,  #
                                             EPILOGUE_SUBTILE: tl.constexpr,  #
                                             NUM_SMS: tl.constexpr,  #
                                             WARP_SPECIALIZE: tl.constexpr,  #
                                             ):
    # The same tile walk through descriptors the host made (Triton's
    # TensorDescriptor; tensordesc arguments), as the tutorial's
    # matmul_kernel_tma_persistent takes them.
    _persistent_tiles(a_desc, b_desc, c_desc, M, N, K, BLOCK_SIZE_M,
                      BLOCK_SIZE_N, BLOCK_SIZE_K, GROUP_SIZE_M,
                      EPILOGUE_SUBTILE, NUM_SMS, WARP_SPECIALIZE)
