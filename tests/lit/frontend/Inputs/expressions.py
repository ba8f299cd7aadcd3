import triton
import triton.language as tl


@triton.jit
def exprs(x, *args, scale: float = 1.0, **kwargs) -> tl.tensor:
    a = b = -x ** 2 + ~x // 3 % 4 @ x
    c, *d = x, args
    e = (x if x > 0 else -x) if not x else None
    f = 0 < x <= 10 != x is not None
    g = x in args and x not in args or ...
    h = x[:, None, 1:2, ::3, ...]
    i = tl.reduce(x, 0, lambda p, q: p + q)
    j = f(*args, k=1, **kwargs)
    k = {"a": 1, **kwargs}
    l = [1, 0x_FF, 0o17, 0b1, 1_000.5e-3, 2j, 123456789012345678901234567890]
    m = b"\x00\xff" if (n := 3) else 'it\'s' "\u00e9"
    o = f"{x!r:>{10}}"
    p = True, False, ()
    x <<= 1; x >>= 1; x **= 2; x //= 2; x @= x; x |= 1; x ^= 1; x &= 1; x %= 3
    assert x > 0, "positive"
    while x:
        if x:
            break
        continue
    else:
        pass
    for (u, v) in zip(x, x):
        pass
    else:
        raise ValueError("unreachable")
    return
