# Jit helpers another module of the package imports. They use this module's
# own names: its alias of triton.language, a constant, another helper.
import triton
import triton.language as T

SCALE = 3


@triton.jit
def program_id64(axis: int):
    return T.program_id(axis).to(T.int64)


@triton.jit
def _times(x, k):
    return x * k


@triton.jit
def scale(x):
    return _times(x, SCALE)


@triton.jit
def maximum(a, b):
    return T.maximum(a, b)


# FlagGems' utils/limits.py idiom: unwrap the constexpr dtype (`.value`),
# ask it what it is.
@triton.jit
def lowest(dtype):
    dtype_ = dtype.value
    if dtype_.is_floating():
        value: T.constexpr = float("-inf")
        return value
    width: T.constexpr = dtype_.int_bitwidth
    value: T.constexpr = -1 * 2 ** (width - 1)
    return value


# FlagGems' utils/random_utils.py idiom: a top-level `try:` binds another
# name for a triton.language function, with a fallback in the handler.
try:
    uniform = T.uint_to_uniform_float
except AttributeError:

    @triton.jit
    def uniform(x):
        return x * 0.0
