# Compile with: tlec examples/warp_specialized_reduce.py --emit=tile-ir followed by these arguments:
# tlec-args: --kernel ws_row_sum_kernel -D BLOCK=1024 --signature '*fp32:16, *fp32:16, *fp32, i32'
#
# Copy/reduce over rows with a producer warp and consumer warps
# (TLE-Struct): tle.gpu.warp_specialize runs `_consume` on the kernel's 4
# warps and `_produce` on one more warp of the block. The producer streams
# the row BLOCK columns at a time into two block-level buffers with
# tle.gpu.copy (cp.async on NVIDIA, tracked by the `full` barriers); the
# consumers copy each chunk to y, add it into the row's sum and hand the
# buffer back through the `empty` barriers. Each barrier's phase flips once
# per use; a producer's first wait on an `empty` barrier names the phase
# before the first (parity 1), which has completed by definition.
# ws_pipe_row_sum_kernel is the same with a TLE-Lite pipe between the two
# partitions instead of hand-made buffers and barriers: the compiler makes
# the ring of DEPTH slots, a `full` and an `empty` barrier per slot, and
# the counters of each role; writer_close() tells the reader the row ended
# (its reader_wait() then returns valid = False).
# The same copy/reduce in plain Triton is row_sum_plain_kernel in
# examples/pipelined_reduce.py (beside a one-role TLE-Lite pipe version).
import torch
import triton
import triton.language as tl
import triton.experimental.tle as tle


@triton.jit
def _produce(x_row, n_cols, buf0, buf1, full0, full1, empty0, empty1, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    for k in range(0, tl.cdiv(n_cols, 2 * BLOCK)):
        parity = (k & 1) ^ 1
        cols = 2 * k * BLOCK + offs
        tle.gpu.barrier_wait(empty0, parity)
        tle.gpu.copy(x_row + cols, buf0, [BLOCK], mask=cols < n_cols, barrier=full0)
        tle.gpu.barrier_arrive(full0)
        cols = cols + BLOCK
        tle.gpu.barrier_wait(empty1, parity)
        tle.gpu.copy(x_row + cols, buf1, [BLOCK], mask=cols < n_cols, barrier=full1)
        tle.gpu.barrier_arrive(full1)


@triton.jit
def _consume(y_row, sum_ptr, n_cols, buf0, buf1, full0, full1, empty0, empty1, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, ), dtype=tl.float32)
    for k in range(0, tl.cdiv(n_cols, 2 * BLOCK)):
        parity = k & 1
        cols = 2 * k * BLOCK + offs
        tle.gpu.barrier_wait(full0, parity)
        x = tl.load(tle.gpu.local_ptr(buf0))
        tl.store(y_row + cols, x, mask=cols < n_cols)
        acc += x
        tle.gpu.barrier_arrive(empty0)
        cols = cols + BLOCK
        tle.gpu.barrier_wait(full1, parity)
        x = tl.load(tle.gpu.local_ptr(buf1))
        tl.store(y_row + cols, x, mask=cols < n_cols)
        acc += x
        tle.gpu.barrier_arrive(empty1)
    tl.store(sum_ptr, tl.sum(acc, axis=0))


@triton.jit
def ws_row_sum_kernel(x_ptr, y_ptr, sums_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    buf0 = tle.gpu.alloc([BLOCK], dtype=tl.float32, scope="block")
    buf1 = tle.gpu.alloc([BLOCK], dtype=tl.float32, scope="block")
    full0 = tle.gpu.alloc_barrier(count=1)
    full1 = tle.gpu.alloc_barrier(count=1)
    empty0 = tle.gpu.alloc_barrier(count=1)
    empty1 = tle.gpu.alloc_barrier(count=1)
    x_row = x_ptr + row * n_cols
    y_row = y_ptr + row * n_cols
    tle.gpu.warp_specialize([
        (_consume, (y_row, sums_ptr + row, n_cols, buf0, buf1, full0, full1, empty0, empty1, BLOCK)),
        (_produce, (x_row, n_cols, buf0, buf1, full0, full1, empty0, empty1, BLOCK)),
    ], [1])


@triton.jit
def _pipe_produce(chunks, x_row, n_cols, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    for k in range(0, tl.cdiv(n_cols, BLOCK)):
        cols = k * BLOCK + offs
        chunks.writer_acquire()
        chunks.writer_commit(tl.load(x_row + cols, mask=cols < n_cols, other=0.0))
    chunks.writer_close()


@triton.jit
def _pipe_consume(chunks, y_row, sum_ptr, n_cols, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, ), dtype=tl.float32)
    for k in range(0, tl.cdiv(n_cols, BLOCK)):
        valid, x = chunks.reader_wait()
        cols = k * BLOCK + offs
        tl.store(y_row + cols, x, mask=valid & (cols < n_cols))
        acc += tl.where(valid, x, 0.0)
        chunks.reader_release()
    tl.store(sum_ptr, tl.sum(acc, axis=0))


@triton.jit
def ws_pipe_row_sum_kernel(x_ptr, y_ptr, sums_ptr, n_cols, BLOCK: tl.constexpr, DEPTH: tl.constexpr):
    row = tl.program_id(0)
    chunks = tle.pipe(capacity=DEPTH, name="chunks", x=(tl.float32, (BLOCK, )))
    tle.gpu.warp_specialize([
        (_pipe_consume, (chunks, y_ptr + row * n_cols, sums_ptr + row, n_cols, BLOCK)),
        (_pipe_produce, (chunks, x_ptr + row * n_cols, n_cols, BLOCK)),
    ], [4])


if __name__ == "__main__":
    x = torch.randn(300, 5000, device="cuda")
    y = torch.empty_like(x)
    sums = torch.empty(300, device="cuda")
    ws_row_sum_kernel[(300, )](x, y, sums, 5000, BLOCK=1024)
    torch.testing.assert_close(y, x)
    torch.testing.assert_close(sums, x.sum(dim=1), rtol=1e-4, atol=1e-3)
