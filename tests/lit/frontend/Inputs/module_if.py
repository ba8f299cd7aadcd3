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


if __name__ == "__main__":
    @triton.jit
    def script_only(x):
        pass
