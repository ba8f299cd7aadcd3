import triton
import triton.language as tl


# The combiner of FlagGems' cummax: the larger value and its index, the
# later one on ties.
@triton.jit
def _max_tie_break_right(a, ia, b, ib):
    take_b = b >= a
    return tl.where(take_b, b, a), tl.where(take_b, ib, ia)


# A running maximum and where it was, scanning a tuple of two tensors
# together; x is (37 i) mod 101, a sequence with repeats.
@triton.jit
def running_max(out_ptr, idx_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = ((offs * 37) % 101).to(tl.float32)
    v, i = tl.associative_scan((x, offs), 0, _max_tie_break_right)
    tl.store(out_ptr + offs, v)
    tl.store(idx_ptr + offs, i)


@triton.jit
def _add(a, b):
    return a + b


# A tuple of one tensor reduces to a tuple of one value, as in Triton.
@triton.jit
def reduce_one_tuple(out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    total, = tl.reduce((offs,), 0, _add)
    tl.store(out_ptr, total)


@triton.jit
def _umax(a, b):
    return tl.where(a > b, a, b)


# The largest of 256 uint32 values (i * 2654435761 mod 2^32), reduced and
# as the last element of a running maximum: the combiner's arguments are
# unsigned, as its inputs, so `a > b` compares unsigned.
@triton.jit
def uint_max(out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = offs.to(tl.uint32) * 2654435761
    tl.store(out_ptr, tl.reduce(x, 0, _umax).to(tl.int32, bitcast=True))
    running = tl.associative_scan(x, 0, _umax)
    last = tl.sum(tl.where(offs == BLOCK - 1, running, 0), 0)
    tl.store(out_ptr + 1, last.to(tl.int32, bitcast=True))
