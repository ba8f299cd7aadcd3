# Module-level `if` / `try` blocks whose conditions only Python can
# evaluate, in FlagGems' idioms.
import triton
import triton.language as tl
from flag_gems.utils import has_triton_tle

# fused/moe_align_block_size.py: FlagTree's TLE modules where the probe
# succeeds, None elsewhere; the import is what a kernel can use.
if has_triton_tle(3, 6, 0):
    try:
        import triton.experimental.tle.language.gpu as tleg

        HAS_TLE = True
    except ImportError:
        tleg = None
        HAS_TLE = False
else:
    tleg = None
    HAS_TLE = False


@triton.jit
def scale_fast(x):
    return x * 2.0


@triton.jit
def scale_precise(x):
    return x + x


# ops/exponential_.py: a vendor switch between two helpers; no branch is
# right for every run, so a use is an error.
if device.vendor_name == "iluvatar":
    scale = scale_precise
elif device.vendor_name == "other":
    scale = scale_fast
else:
    scale = scale_fast

# Bound in one branch only: the binding stands.
if triton.__version__ >= "3.4":
    ROWS: tl.constexpr = 4

    @triton.jit
    def twice(x):
        return scale_fast(x)

# An alias of a jit function outside any `if`.
doubled = scale_fast


@triton.jit
def uses_tle(out_ptr):
    counts = tleg.gpu.alloc([16], dtype=tl.int32, layout=None,
                            scope=tleg.gpu.smem, nv_mma_shared_layout=False)
    offs = tl.arange(0, 16)
    tl.store(out_ptr + offs, tl.load(tleg.gpu.local_ptr(counts, (offs,))))


@triton.jit
def uses_one_branch(out_ptr):
    offs = tl.arange(0, ROWS)
    tl.store(out_ptr + offs, doubled(twice(offs.to(tl.float32))))


@triton.jit
def uses_switch(out_ptr):
    tl.store(out_ptr, scale(1.0))


@triton.jit
def uses_probe_flag(out_ptr):
    tl.store(out_ptr, HAS_TLE)


# A branch the scan cannot read may rebind what the other binds.
if device.vendor_name == "a": ONE_LINE = 1
else:
    ONE_LINE = 2

if device.vendor_name == "a":
    UNKNOWN = 1
else:
    UNKNOWN = make_value()

# A colon inside the condition's brackets is not the branch's.
if sys.version_info[:2] >= (3, 8):
    SLICED: tl.constexpr = 3

# The code before an `if` without `else` is one more run.
BEFORE = 1
if device.vendor_name == "a":
    BEFORE = 2

probed = None
if has_triton_tle(3, 6, 0):
    import triton.experimental.tle.language.gpu as probed

# A conflict inside an inner `if` stays one in the outer.
if device.vendor_name == "a":
    if device.vendor_name == "b":
        NESTED = 1
    else:
        NESTED = 2
else:
    NESTED = 2

# A handler's fallback in one branch still differs from the other branch.
if device.vendor_name == "a":
    HANDLED = 1
else:
    try:
        HANDLED = probe()
    except ImportError:
        HANDLED = 2


# An inner `if` settles only its own branch.
if device.vendor_name == "a":
    INNER = 1
else:
    if device.vendor_name == "b":
        INNER = 2
    else:
        INNER = None

# Statements the scan does not record still rebind.
if device.vendor_name == "a":
    UNREAD = make_value()
    if device.vendor_name == "b":
        UNREAD = 2

AUGMENTED = 1
if device.vendor_name == "a":
    AUGMENTED += 1

DECORATED = 1
if device.vendor_name == "a":
    @functools.cache
    def DECORATED():
        return 2

# A conditional try body leaves its handler's fallback unused.
IN_TRY = 5
try:
    if device.vendor_name == "a":
        IN_TRY = 1
    else:
        IN_TRY = 2
except ImportError:
    IN_TRY = 3

# A builtin's name, bound conditionally, is not the builtin.
if device.vendor_name == "a":
    max = tl.minimum
else:
    max = tl.maximum

# An earlier sibling branch is not what a later branch's inner `if` keeps.
SIBLING = 5
if device.vendor_name == "a":
    SIBLING = None
else:
    if device.vendor_name == "b":
        SIBLING = 2.0

# The last binding before an `if` is the last in the source, whatever its
# kind.
ORDERED = None


@triton.jit
def ORDERED(x):
    return x


if device.vendor_name == "a":
    ORDERED = 4.0

# Straight-line rebinding: the last binding stands.
REBOUND = 4.0
from triton.language import float32 as REBOUND  # noqa: E402
# A constant derived from a name's earlier value keeps it when host code
# rebinds the name later.
BASE = 1024
HALF = BASE // 2
BASE = int(environ.get("BASE", "1024"))
if (WALRUS := probe()):
    pass


# A host wrapper named as its kernel leaves the kernel compilable (FlagGems'
# experimental_ops).
@triton.jit
def wrapped(out_ptr):
    tl.store(out_ptr, 1.0)


def wrapped(*args, **kwargs):
    return launch(*args, **kwargs)


# An `if` in a handler is part of the fallback: the try body's import
# stands.
try:
    from triton.language.extra.cuda import libdevice as fallback_lib
except ImportError:
    if hasattr(tl, "math"):
        fallback_lib = tl.math

@triton.jit
def uses_names(out_ptr, WHICH: tl.constexpr):
    if WHICH == 0:
        tl.store(out_ptr, SLICED)
    elif WHICH == 1:
        tl.store(out_ptr, probed.gpu.smem is not None)
    elif WHICH == 2:
        tl.store(out_ptr, ONE_LINE)
    elif WHICH == 3:
        tl.store(out_ptr, UNKNOWN)
    elif WHICH == 4:
        tl.store(out_ptr, BEFORE)
    elif WHICH == 5:
        tl.store(out_ptr, NESTED)
    elif WHICH == 6:
        tl.store(out_ptr, HANDLED)
    elif WHICH == 7:
        tl.store(out_ptr, INNER)
    elif WHICH == 8:
        tl.store(out_ptr, UNREAD)
    elif WHICH == 9:
        tl.store(out_ptr, AUGMENTED)
    elif WHICH == 10:
        tl.store(out_ptr, DECORATED)
    elif WHICH == 11:
        tl.store(out_ptr, IN_TRY)
    elif WHICH == 12:
        tl.store(out_ptr, max(1.0, 2.0))
    elif WHICH == 13:
        tl.store(out_ptr, SIBLING)
    elif WHICH == 14:
        tl.store(out_ptr, ORDERED)
    elif WHICH == 15:
        tl.store(out_ptr, tl.zeros([1], REBOUND).sum() + 1.0)
    elif WHICH == 16:
        tl.store(out_ptr, HALF)
    elif WHICH == 17:
        tl.store(out_ptr, fallback_lib.exp(0.0))
    else:
        tl.store(out_ptr, WALRUS)


if __name__ == "__main__":
    @triton.jit
    def script_only(x):
        pass
