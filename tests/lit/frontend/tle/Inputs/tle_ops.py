# Kernels exercising the TLE-Lite and TLE-Struct surface API; the tests in
# the parent folder lower one kernel each.
import triton
import triton.language as tl
import triton.experimental.tle as tle


@triton.jit
def pipes(x_ptr, out_ptr, n_tiles, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    p = tle.pipe(capacity=2, scope="block", name="tiles", readers=1, x=(tl.float32, (BLOCK, )),
                 idx=tl.int32)
    for k in tl.range(0, n_tiles):
        p.writer_acquire()
        p.writer_commit(tl.load(x_ptr + k * BLOCK + offs), k)
    p.writer_close()
    acc = tl.zeros((BLOCK, ), dtype=tl.float32)
    for k in tl.range(0, n_tiles):
        valid, x, idx = p.reader_wait()
        acc += tl.where(valid, x, 0.0)
        p.reader_release()
    tl.store(out_ptr + offs, acc)


@triton.jit
def mesh(flag_ptr, data_ptr):
    m = tle.device_mesh(block=4, node=2, device=8)
    dev = tle.shard_id(m, "device")
    peer = tle.remote(data_ptr, (dev + 1) % 8, space="device")
    tl.store(peer, 1.0)
    tle.distributed_barrier(m, "node")
    tle.signal(tle.remote(flag_ptr, dev, space="node"), 1, kind="add")
    seen = tle.signal_wait(flag_ptr, 8, cmp="ge")
    tle.distributed_barrier(m)
    v = tle.load(data_ptr, is_async=True)
    tl.store(data_ptr, v + seen)


@triton.jit
def dsa(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    buf = tle.dsa.alloc([BLOCK], dtype=tl.float32, mem_addr_space="spm")
    tle.dsa.copy(x_ptr + offs, buf, [BLOCK])
    t = tle.dsa.to_tensor(buf)
    t = tle.dsa.hint(t * 2.0, vectorize=4)
    out_buf = tle.dsa.to_buffer(t, mem_addr_space="spm")
    for core in tle.dsa.parallel(0, 4, level="core"):
        part = tl.load(tle.dsa.local_ptr(out_buf, (core * (BLOCK // 4) + tl.arange(0, BLOCK // 4), )))
        tl.store(out_ptr + core * (BLOCK // 4) + tl.arange(0, BLOCK // 4), part)


@triton.jit
def produce(buf, bar, x_ptr, BLOCK: tl.constexpr):
    tle.gpu.copy(x_ptr + tl.arange(0, BLOCK), buf, [BLOCK], barrier=bar)
    tle.gpu.barrier_arrive(bar)


@triton.jit
def consume(buf, bar, out_ptr, BLOCK: tl.constexpr):
    tle.gpu.barrier_wait(bar, 0)
    x = tl.load(tle.gpu.local_ptr(buf))
    tl.store(out_ptr + tl.arange(0, BLOCK), x)


@triton.jit
def warp_specialized(x_ptr, out_ptr, BLOCK: tl.constexpr):
    buf = tle.gpu.alloc([BLOCK], dtype=tl.float16, scope=tle.gpu.smem)
    bar = tle.gpu.alloc_barrier(count=1)
    tle.gpu.warp_specialize([(consume, (buf, bar, out_ptr, BLOCK)), (produce, (buf, bar, x_ptr, BLOCK))], [1],
                            worker_num_regs=[24])
