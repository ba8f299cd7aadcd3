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
