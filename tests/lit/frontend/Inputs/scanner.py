# Top-level scanning: import spellings, decorator forms, constants, and host
# constructs that must be skipped without being parsed.
from __future__ import annotations

import triton
from triton import jit
from triton import language as T
import triton.language.core as core
from triton.language.extra import libdevice
from triton.language.extra.cuda import libdevice as cuda_libdevice
import triton.experimental.tle as tle
from . import helpers
from .. import (utils as u,
                other)

BLOCK = T.constexpr(1024); EPS = 1e-6
DTYPE = T.float16
NEG = -(2**31)
NOT_A_CONSTANT = torch.zeros(4)
name: str = "kernel"


@triton.heuristics({"EVEN_N": lambda args: args["N"] % args["BLOCK_N"] == 0})
@jit(do_not_specialize=["N"])
def heuristic_kernel(x_ptr, N, BLOCK_N: T.constexpr, EVEN_N: T.constexpr):
    if EVEN_N:
        T.store(x_ptr + T.arange(0, BLOCK_N), libdevice.exp(1.0))


@triton.autotune(configs=[triton.Config({"BLOCK": b}, num_warps=w) for b in [64, 128] for w in [4, 8]],
                 key=["n"], reset_to_zero=["out_ptr"])
@tle.jit
def comprehension_configs(out_ptr, n, BLOCK: T.constexpr = 64):
    pass


@functools.lru_cache
def host_cached():
    return 1


class Holder:
    @triton.jit
    def method_kernel(x):
        pass


def host(cmd):
    match cmd:
        case {"op": op, **rest} if op:
            print(f"{cmd["op"]!r:>{10}} {rest}")
        case _:
            pass
    async def inner():
        await something()
    return [x async for x in y]


if __name__ == "__main__":
    @triton.jit
    def not_top_level(x):
        pass
