import triton
import triton.language as tl


@triton.jit
def undefined_name(x_ptr):
    tl.store(x_ptr, y)


@triton.jit
def unknown_tl_function(x_ptr):
    tl.store(x_ptr, tl.frobnicate(1))


@triton.jit
def wrong_keyword(x_ptr):
    tl.store(x_ptr, tl.load(x_ptr, masks=None))


@triton.jit
def too_many_args(x_ptr):
    tl.store(x_ptr, tl.program_id(0, 1))


@triton.jit
def missing_arg(x_ptr):
    tl.store(x_ptr)


@triton.jit
def arange_not_pow2(x_ptr):
    tl.store(x_ptr + tl.arange(0, 12), 0.0)


@triton.jit
def arange_runtime(x_ptr, n):
    tl.store(x_ptr + tl.arange(0, n), 0.0)


@triton.jit
def broadcast_mismatch(x_ptr):
    a = tl.arange(0, 16)
    b = tl.arange(0, 32)
    tl.store(x_ptr + a, a + b)


@triton.jit
def float_bitwise(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr + tl.arange(0, 16), x & 1)


@triton.jit
def float_floordiv(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr + tl.arange(0, 16), x // 2.0)


@triton.jit
def pointer_times(x_ptr):
    tl.store(x_ptr * 2, 1.0)


@triton.jit
def block_ptr(x_ptr):
    p = tl.make_block_ptr(x_ptr, (16,), (1,), (0,), (16,), (1,))


@triton.jit
def tensor_if(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    if x > 0:
        tl.store(x_ptr, 1.0)


@triton.jit
def loop_type_change(x_ptr, n):
    acc = tl.zeros((16,), dtype=tl.float32)
    for i in range(n):
        acc = acc.to(tl.float16)
    tl.store(x_ptr + tl.arange(0, 16), acc)


@triton.jit
def return_in_loop(x_ptr, n):
    for i in range(n):
        return


@triton.jit
def break_stmt(x_ptr, n):
    for i in range(n):
        break


@triton.jit
def item_assignment(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    x[0] = 1.0


@triton.jit
def static_assert_fails(x_ptr, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK % 32 == 0, "BLOCK must be a multiple of 32")


@triton.jit
def static_range_runtime(x_ptr, n):
    for i in tl.static_range(n):
        tl.store(x_ptr, 1.0)


@triton.jit
def dot_small(x_ptr):
    a = tl.zeros((8, 8), dtype=tl.float16)
    tl.store(x_ptr, tl.sum(tl.sum(tl.dot(a, a), axis=0), axis=0))


@triton.jit
def dot_inner_mismatch(x_ptr):
    a = tl.zeros((32, 16), dtype=tl.float16)
    b = tl.zeros((32, 16), dtype=tl.float16)
    c = tl.dot(a, b)


@triton.jit
def exp_of_int(x_ptr):
    tl.store(x_ptr + tl.arange(0, 16), tl.exp(tl.arange(0, 16)))


@triton.jit
def reduce_bad_axis(x_ptr):
    tl.store(x_ptr, tl.sum(tl.zeros((16,), dtype=tl.float32), axis=2))


@triton.jit
def unpack_count(x_ptr):
    a, b, c = tl.split(tl.zeros((16, 2), dtype=tl.float32))


@triton.jit
def reshape_count(x_ptr):
    x = tl.reshape(tl.zeros((16,), dtype=tl.float32), (4, 8))


@triton.jit
def load_non_pointer(x_ptr):
    x = tl.load(tl.arange(0, 16))


@triton.jit
def other_without_mask(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16), other=0.0)


@triton.jit
def bad_cache_modifier(x_ptr):
    x = tl.load(x_ptr, cache_modifier=".xx")


@triton.jit
def tensor_index(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr, x[3])


@triton.jit
def not_callable(x_ptr):
    x = 3
    x(1)


@triton.jit
def division_by_zero(x_ptr, BLOCK: tl.constexpr):
    tl.store(x_ptr, BLOCK // 0)


@triton.jit
def helper(a, b):
    return a + b


@triton.jit
def jit_call_arity(x_ptr):
    tl.store(x_ptr, helper(1))


@triton.jit
def signedness_div(x_ptr, u):
    tl.store(x_ptr, u // tl.program_id(0))


@triton.jit
def fstring_in_kernel(x_ptr):
    tl.device_print(f"{tl.load(x_ptr)}")


@triton.jit
def atomic_float_and(x_ptr):
    tl.atomic_and(x_ptr, 1.0)


@triton.jit
def constexpr_unbound(x_ptr, BLOCK: tl.constexpr):
    tl.store(x_ptr, BLOCK)


@triton.jit
def gather_float_index(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr + tl.arange(0, 16), tl.gather(x, x, 0))


@triton.jit
def gather_other_axis(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16)[:, None] * 8 +
                tl.arange(0, 8)[None, :])
    i = tl.arange(0, 4)[:, None] + tl.zeros([4, 8], tl.int32)
    tl.store(x_ptr, tl.sum(tl.sum(tl.gather(x, i, 1), 1), 0))


@triton.jit
def zero_step(x_ptr, n, STEP: tl.constexpr):
    for i in range(0, n, STEP):
        tl.store(x_ptr + i, 1.0)


@triton.jit
def zero_static_step(x_ptr, STEP: tl.constexpr):
    for j in tl.static_range(0, 4, STEP):
        tl.store(x_ptr + j, 1.0)


@triton.jit
def _limit_of(dtype):
    if dtype is tl.int32:
        return 2147483647
    else:
        raise ValueError("Unknown dtype")


@triton.jit
def raise_reached(x_ptr, y_ptr):
    tl.store(x_ptr, _limit_of(x_ptr.dtype.element_ty))
    tl.store(y_ptr, _limit_of(y_ptr.dtype.element_ty))


@triton.jit
def raise_from(x_ptr, FLAG: tl.constexpr):
    if FLAG:
        raise ValueError(
            "two lines") from None
    tl.store(x_ptr, 1.0)
