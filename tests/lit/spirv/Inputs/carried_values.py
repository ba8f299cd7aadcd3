# Tuples carried through loops and branches: Triton flattens them into the
# loop's iteration values and the branches' results.
import triton
import triton.language as tl


@triton.jit
def tuple_loop(out_ptr, n, BLOCK: tl.constexpr):
    # out[i] = i + 3 * n: a tuple of a tile and a scalar, advanced n times.
    offs = tl.arange(0, BLOCK)
    state = (offs, 0)
    for _ in range(n):
        tile, count = state
        state = (tile + 1, count + 2)
    tile, count = state
    tl.store(out_ptr + offs, tile + count)


@triton.jit
def tuple_while_and_if(out_ptr, n, BLOCK: tl.constexpr):
    # Swaps a pair of tiles n times (while), then adds 1000 to the first
    # where n is odd (if): out is -100 for an even n, 1100 for an odd one.
    offs = tl.arange(0, BLOCK)
    pair = (offs, offs + 100)
    i = 0
    while i < n:
        first, second = pair
        pair = (second, first)
        i += 1
    if n % 2 == 1:
        pair = (pair[0] + 1000, pair[1])
    tl.store(out_ptr + offs, pair[0] - pair[1])


@triton.jit
def _halve_unless_large(n):
    if n > 3:
        return 0
    return n.to(tl.uint32)


@triton.jit
def unsigned_merges(out_ptr, n):
    # An unsigned value merged with a Python number stays unsigned (the
    # shifts are logical): after an if in a tuple, and as a returned value.
    # For n = -2 both are 0xfffffffe >> 1 = 2147483647; for n = 5, 0.
    t = (n.to(tl.uint32), 1)
    if n > 3:
        t = (0, 1)
    tl.store(out_ptr, (t[0] >> 1).to(tl.int32))
    tl.store(out_ptr + 1, (_halve_unless_large(n) >> 1).to(tl.int32))
