import triton
import triton.language as tl


@triton.jit
def pick(n):
    # A value returned from a run-time branch; the rest of the function is
    # the other branch.
    if n > 100:
        return 2.0
    return 3.0


@triton.jit
def ordered(a, b):
    if a < b:
        return a, b
    return b, a


@triton.jit
def early_exit(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    # Programs past the end leave at once; the others need no mask.
    if pid * BLOCK >= n:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, x * pick(n))


@triton.jit
def nested_exit(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    if pid < 2:
        if n < 0:
            return
        scale = 1.0
    else:
        scale = 4.0
    lo, hi = ordered(pid, n)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, x * scale + (hi - lo) * 0, mask=offs < n)


@triton.jit
def return_in_loop(x_ptr, n):
    for i in range(n):
        if i > 3:
            return
        tl.store(x_ptr + i, i)


@triton.jit
def mixed_returns(x_ptr, n):
    if n > 0:
        return n
    tl.store(x_ptr, n)
