import triton
import triton.language as tl
import triton.experimental.tle as tle


@triton.jit
def read_only(out_ptr, BLOCK: tl.constexpr):
    p = tle.pipe(capacity=2, name="tiles", x=(tl.float32, (BLOCK, )))
    valid, x = p.reader_wait()
    tl.store(out_ptr + tl.arange(0, BLOCK), x, mask=valid)
    p.reader_release()


@triton.jit
def produce(p, x_ptr, BLOCK: tl.constexpr):
    p.writer_acquire()
    p.writer_commit(tl.load(x_ptr + tl.arange(0, BLOCK)))


@triton.jit
def written_in_helper(x_ptr, out_ptr, BLOCK: tl.constexpr):
    p = tle.pipe(capacity=2, name="tiles", x=(tl.float32, (BLOCK, )))
    produce(p, x_ptr, BLOCK)
    valid, x = p.reader_wait()
    tl.store(out_ptr + tl.arange(0, BLOCK), x, mask=valid)
    p.reader_release()
