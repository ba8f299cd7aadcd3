# Compile with: tlec examples/pipelined_reduce.py --emit=tile-ir followed by these arguments:
# tlec-args: --kernel pipelined_row_sum_kernel -D BLOCK=1024 -D DEPTH=3 --signature '*fp32:16, *fp32:16, *fp32, i32'
#
# Pipelined copy/reduce over rows with a TLE-Lite producer/consumer channel:
# one program per row; the producer loads the row BLOCK columns at a time
# into `chunks`, a pipe of DEPTH slots, running DEPTH - 1 chunks ahead of
# the consumer, which copies each chunk to y and adds it into the row's sum.
# The compiler turns the pipe into a ring of DEPTH slots in block-level
# memory (shared memory, LDS, Workgroup storage or a scratchpad, from the
# hardware description) and places the barriers; a schedule that could
# never make progress (committing more than DEPTH slots before reading,
# reading before anything is committed) is an error at the kernel line.
# struct_row_sum_kernel is the same copy/reduce written with TLE-Struct
# instead of a pipe: one buffer, tle.gpu.copy tracked by a barrier (cp.async
# and an mbarrier on NVIDIA; a plain copy and a block barrier where the chip
# has no barrier objects), the block one role.
# row_sum_plain_kernel is the same copy/reduce in plain Triton.
import torch
import triton
import triton.language as tl
import triton.experimental.tle as tle


@triton.jit
def pipelined_row_sum_kernel(x_ptr, y_ptr, sums_ptr, n_cols, BLOCK: tl.constexpr, DEPTH: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x_row = x_ptr + row * n_cols
    y_row = y_ptr + row * n_cols
    chunks = tle.pipe(capacity=DEPTH, name="chunks", x=(tl.float32, (BLOCK, )))
    # Producer prologue: DEPTH - 1 chunks in flight before the first read.
    for k in tl.static_range(DEPTH - 1):
        ahead = k * BLOCK + offs
        chunks.writer_acquire()
        chunks.writer_commit(tl.load(x_row + ahead, mask=ahead < n_cols, other=0.0))
    acc = tl.zeros((BLOCK, ), dtype=tl.float32)
    for k in range(0, tl.cdiv(n_cols, BLOCK)):
        # Producer: the chunk DEPTH - 1 ahead (zeros past the row's end).
        ahead = (k + DEPTH - 1) * BLOCK + offs
        chunks.writer_acquire()
        chunks.writer_commit(tl.load(x_row + ahead, mask=ahead < n_cols, other=0.0))
        # Consumer: chunk k.
        valid, x = chunks.reader_wait()
        cols = k * BLOCK + offs
        tl.store(y_row + cols, x, mask=valid & (cols < n_cols))
        acc += tl.where(valid, x, 0.0)
        chunks.reader_release()
    chunks.writer_close()
    tl.store(sums_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def struct_row_sum_kernel(x_ptr, y_ptr, sums_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    buf = tle.gpu.alloc([BLOCK], dtype=tl.float32, scope="block")
    bar = tle.gpu.alloc_barrier(count=1)
    acc = tl.zeros((BLOCK, ), dtype=tl.float32)
    for k in range(0, tl.cdiv(n_cols, BLOCK)):
        cols = k * BLOCK + offs
        tle.gpu.copy(x_ptr + row * n_cols + cols, buf, [BLOCK], mask=cols < n_cols, barrier=bar)
        tle.gpu.barrier_arrive(bar)
        tle.gpu.barrier_wait(bar, k & 1)
        x = tl.load(tle.gpu.local_ptr(buf))
        tl.store(y_ptr + row * n_cols + cols, x, mask=cols < n_cols)
        acc += x
        # Every thread has read the chunk before the next copy overwrites it.
        tl.debug_barrier()
    tl.store(sums_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def row_sum_plain_kernel(x_ptr, y_ptr, sums_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, ), dtype=tl.float32)
    for k in range(0, tl.cdiv(n_cols, BLOCK)):
        cols = k * BLOCK + offs
        x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
        tl.store(y_ptr + row * n_cols + cols, x, mask=cols < n_cols)
        acc += x
    tl.store(sums_ptr + row, tl.sum(acc, axis=0))


if __name__ == "__main__":
    x = torch.randn(300, 5000, device="cuda")
    y = torch.empty_like(x)
    sums = torch.empty(300, device="cuda")
    pipelined_row_sum_kernel[(300, )](x, y, sums, 5000, BLOCK=1024, DEPTH=3)
    torch.testing.assert_close(y, x)
    torch.testing.assert_close(sums, x.sum(dim=1), rtol=1e-4, atol=1e-3)
