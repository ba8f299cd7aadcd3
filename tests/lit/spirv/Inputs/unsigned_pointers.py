import triton
import triton.language as tl
import triton.experimental.tle.language.gpu as tle
import triton.experimental.tle as tlx


@triton.jit
def widen(x_ptr, out_ptr, n, MODE: tl.constexpr):
    # A *u8 argument loads uint8 however it is reached: pointer arithmetic,
    # a block pointer, a tensor descriptor, a tl.where between pointers, a
    # pointer carried by a loop.
    offs = tl.arange(0, 64)
    mask = offs < n
    if MODE == 0:
        x = tl.load(x_ptr + offs, mask=mask)
    elif MODE == 1:
        p = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (64,), (0,))
        x = tl.load(p, boundary_check=(0,))
    elif MODE == 2:
        d = tl.make_tensor_descriptor(x_ptr, [n], [1], [64])
        x = d.load([0])
    elif MODE == 3:
        q = tl.where(n > 0, x_ptr, x_ptr + 1)
        x = tl.load(q + offs, mask=mask)
    else:
        q = x_ptr
        for i in range(2):
            q = q + 0
        x = tl.load(q + offs, mask=mask)
    tl.static_print(x_ptr.dtype, x.dtype)
    tl.store(out_ptr + offs, x.to(tl.float32) / 2, mask=mask)


@triton.jit
def narrow(x_ptr, out_ptr, n):
    # Stores convert to the pointee's type: fp32 200.0 to uint8 is 200.
    offs = tl.arange(0, 64)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


@triton.jit
def gather_u8(idx_ptr, tab_ptr, out_ptr):
    # An unsigned offset is zero-extended, as in Triton's add: index 200 of
    # uint8 reads tab[300], not tab[44].
    offs = tl.arange(0, 64)
    i = tl.load(idx_ptr + offs)
    tl.store(out_ptr + offs, tl.load(tab_ptr + 100 + i))


@triton.jit
def local_u8(out_ptr):
    # A uint8 local buffer reads back uint8.
    offs = tl.arange(0, 64)
    buf = tle.gpu.alloc([64], dtype=tl.uint8, scope="block", init_value=200)
    x = tl.load(tle.gpu.local_ptr(buf))
    tl.static_print(x.dtype)
    tl.store(out_ptr + offs, x.to(tl.float32) / 2)


@triton.jit
def pipe_u8(x_ptr, out_ptr):
    # Pipe fields keep their signedness (the pipe type keeps only MLIR's
    # signless types).
    offs = tl.arange(0, 64)
    p = tlx.pipe(capacity=2, name="tiles", ptr=x_ptr, t=(tl.uint8, (64,)))
    p.writer_acquire()
    p.writer_commit(x_ptr, tl.load(x_ptr + offs))
    p.writer_close()
    valid, q, t = p.reader_wait()
    p.reader_release()
    tl.static_print(q.dtype, t.dtype)
    tl.store(out_ptr + offs, tl.load(q + offs).to(tl.float32) + t.to(tl.float32))
