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


@triton.jit
def builtins_exact(out_ptr, BIG: tl.constexpr):
    # Python's abs, int, min and max on ints beyond a double's 53 bits.
    t = (10, 20, 30)
    tl.static_print(abs(2 ** 63 + 1), abs(-(2 ** 63)), int(2 ** 53 + 1),
                    int(2 ** 63 + 5), int(-2.5), max(2 ** 62, 2 ** 62 + 1),
                    min(2 ** 62 + 1, 2 ** 62), t[1:BIG], BIG)


@triton.jit
def loop_bounds(out_ptr, n, m):
    # Bounds promote as Triton's visit_For does, without the checks of a
    # Python int meeting a tile: a uint32 n counts down to 0 in uint32, and
    # an int32 start with an end beyond int32 loops in int64.
    acc = 0
    for i in range(n - 1, -1, -1):
        acc += 1
    for j in range(m, 5000000000, 1000000000):
        acc += 1
    tl.store(out_ptr, acc)


@triton.jit
def unsigned_tiles(x_ptr):
    # A Python int is of the integral kind, as any int tile (Triton's
    # dtype.KIND): uint8 - 1 stays uint8 (0 - 1 is 255), uint32 % 7 is uint32.
    x = tl.load(x_ptr + tl.arange(0, 4)).to(tl.uint8)
    tl.static_print((x - 1).dtype, (x.to(tl.uint32) % 7).dtype)
