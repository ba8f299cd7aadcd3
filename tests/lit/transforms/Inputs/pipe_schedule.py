import triton
import triton.language as tl
import triton.experimental.tle as tle


@triton.jit
def big_ring(x_ptr, out_ptr, n, BLOCK: tl.constexpr, DEPTH: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    p = tle.pipe(capacity=DEPTH, name="rows", x=(tl.float32, (BLOCK, )))
    acc = tl.zeros((BLOCK, ), dtype=tl.float32)
    for k in range(0, n):
        p.writer_acquire()
        p.writer_commit(tl.load(x_ptr + k * BLOCK + offs))
        valid, x = p.reader_wait()
        acc += x
        p.reader_release()
    tl.store(out_ptr + offs, acc)


@triton.jit
def read_ahead(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    p = tle.pipe(capacity=2, name="rows", x=(tl.float32, (BLOCK, )))
    p.writer_acquire()
    p.writer_commit(tl.load(x_ptr + offs))
    acc = tl.zeros((BLOCK, ), dtype=tl.float32)
    for k in range(0, n):
        valid, x = p.reader_wait()
        acc += x
        p.reader_release()
    tl.store(out_ptr + offs, acc)
