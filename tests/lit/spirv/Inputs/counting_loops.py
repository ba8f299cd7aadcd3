import triton
import triton.language as tl


@triton.jit
def counting_loops(out_ptr, n, START: tl.constexpr):
    # Slot k of `seen` records the loop variable of the loop's k-th iteration.
    offs = tl.arange(0, 64)
    seen = tl.full([64], -1, tl.int32)
    k = 0
    for i in range(n - 1, -1, -1):  # run-time bounds, step -1
        seen = tl.where(offs == k, i, seen)
        k += 1
    k = 32
    for j in tl.range(START, n // 4, -3):  # step -3, the end not reached
        seen = tl.where(offs == k, j, seen)
        k += 1
    for j in range(n, n + 5, -1):  # starts below its end: no iteration
        seen = tl.where(offs == 63, j, seen)
    tl.store(out_ptr + offs, seen)
