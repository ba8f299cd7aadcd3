import triton
import triton.language as tl


@triton.jit
def exact(out_ptr):
    # Python's values, where int64 arithmetic would wrap or trap.
    tl.static_print((1 << 63) - 1, -(1 << 63), 0xFFFFFFFFFFFFFFFF, 2 ** 63,
                    (-2) ** 63, (-9223372036854775807 - 1) // -1,
                    -5 >> 70, 5 >> 70, -7 // 2, -7 % 2, 7 % -2,
                    1 ** 10 ** 18, (-1) ** (10 ** 18 + 1),
                    2 ** 63 > 2 ** 63 - 1, 2 ** 63 == 9223372036854775808)


@triton.jit
def unsigned64(out_ptr):
    # An int in [2^63, 2^64) is a uint64, as Triton's to_tensor makes it.
    ones = tl.full([4], 0xFFFFFFFFFFFFFFFF, tl.uint64)
    top = tl.zeros([4], tl.uint64) | 0x8000000000000000
    tl.static_print(ones.dtype, top.dtype)
    tl.store(out_ptr + tl.arange(0, 4), ones ^ top)


@triton.jit
def errors(out_ptr, n, C: tl.constexpr):
    if C == 0:
        x = (1 << 62) * 4
    elif C == 1:
        x = 1 << -1
    elif C == 2:
        x = 2 ** 100000000000
    elif C == 3:
        x = 9223372036854775807 + 1 + 0xFFFFFFFFFFFFFFFF
    elif C == 4:
        x = n + 5000000000  # n is an i32
    elif C == 5:
        x = n.to(tl.uint32) + -1
    elif C == 6:
        x = n.to(tl.int64) | 0x8000000000000000
    else:
        x = -0xFFFFFFFFFFFFFFFF
    tl.store(out_ptr, x)


@triton.jit
def full_values(out_ptr, C: tl.constexpr):
    # Triton's builder refuses a value the dtype cannot hold (0.0 is allowed).
    if C == 0:
        y = tl.full([4], 300, tl.uint8)
    elif C == 1:
        y = tl.full([4], -1, tl.uint32)
    elif C == 2:
        y = tl.full([4], 1.5, tl.int32)
    else:
        y = tl.full([4], 0.0, tl.int32) + tl.full([4], 255, tl.uint8)
    tl.store(out_ptr + tl.arange(0, 4), y)
