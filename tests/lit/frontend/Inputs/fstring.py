import triton
import triton.language as tl


@triton.jit
def texts(x_ptr, N: tl.constexpr, NBITS: tl.constexpr, DT: tl.constexpr,
          NAME: tl.constexpr):
    tl.static_assert(N < 0, f"N={N} {NBITS=} {NBITS = } {DT} {DT!r} {NAME} "
                     f"{NAME!r} {NAME!a} {None} {True} {N * 2 + 1} "
                     f"{N == 16} {N != 16} {'{'} {{}} {'it' + 's'}")


@triton.jit
def floats(x_ptr):
    tl.static_assert(False, f"{0.1} {1e16} {1e-5} {123456789.125} {-0.0} "
                     f"{2.5e-07} {1 / 3} {1e15} {123456789012345678.0} "
                     f"{5e-324} {1.7976931348623157e308} {0.0001} {100.0}")


@triton.jit
def dtype_by_name(x_ptr, NBITS: tl.constexpr):
    # FlagGems' radix top-k: an unsigned view of the keys.
    UINT: tl.constexpr = tl.dtype(f"uint{NBITS}")
    x = tl.load(x_ptr + tl.arange(0, 16))
    bits = x.to(UINT, bitcast=True)
    tl.store(x_ptr + tl.arange(0, 16), (bits >> 1).to(x.dtype, bitcast=True))


@triton.jit
def spec_ignored(x_ptr, N: tl.constexpr):
    tl.device_print(f"row {N:04d}|", tl.load(x_ptr))


@triton.jit
def tensor_field(x_ptr):
    x = tl.load(x_ptr)
    tl.device_print(f"x is {x}", x)


@triton.jit
def bad_dtype_name(x_ptr):
    tl.store(x_ptr, tl.zeros([16], tl.dtype("float16")))


@triton.jit
def forms(x, w, d):
    a = f"{x=}" f"{x = !s}" f"{x=:>3}"
    b = rf"\d{x}\n" "\t" f"{d['k']}{{{x}}}"
    c = f"{x == 1}{x != 1}{x >= 1}{(x, w)}"
    e = f"{x!r:>{w}.{w}}" f"\N{BULLET}{x}"


@triton.jit
def big_ints(x_ptr):
    # Unary minus and invert in int64, past 2^53 (Python's text).
    tl.static_assert(False, f"{-9007199254740993} {~9007199254740993} "
                     f"{-True} {~False}")


@triton.jit
def same_quotes(x_ptr, N: tl.constexpr):
    # Python 3.12 (PEP 701): strings in a field may reuse the outer quote.
    tl.static_assert(False, f'{f'{'x:y'}'} {'a' + "b"} {f"{N:}"}')
