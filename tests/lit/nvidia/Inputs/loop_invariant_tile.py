# A tile read once, down its columns, and used in every iteration of a loop
# that reads another tile of the same shape along its rows.
import triton
import triton.language as tl


@triton.jit
def scale_sum(X, W, Y, N, B: tl.constexpr):
    offs = tl.arange(0, B)
    w = tl.load(W + offs[None, :] * B + offs[:, None])
    acc = tl.zeros((B, B), tl.float32)
    for i in range(N):
        x = tl.load(X + i * B * B + offs[:, None] * B + offs[None, :])
        acc += x * w
    tl.store(Y + offs[:, None] * B + offs[None, :], acc)


# The same with the loop's tile read down its columns two elements at a time
# (8-byte aligned): narrower than W's 16-byte rows, but in the loop.
@triton.jit
def scale_sum_columns(X, W, Y, N, B: tl.constexpr):
    offs = tl.arange(0, B)
    w = tl.load(W + offs[:, None] * B + offs[None, :])
    acc = tl.zeros((B, B), tl.float32)
    for i in range(N):
        x = tl.load(X + i * 2 + offs[:, None] + offs[None, :] * B)
        acc += x * w
    tl.store(Y + offs[:, None] + offs[None, :] * B, acc)
