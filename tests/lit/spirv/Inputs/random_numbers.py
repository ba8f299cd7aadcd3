import triton
import triton.language as tl


# triton.language's random numbers: the same streams as Triton's for a seed
# and offsets.
@triton.jit
def random_kernel(int_ptr, uniform_ptr, normal_ptr, fourth_ptr, wide_ptr,
                  seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(int_ptr + offs, tl.randint(seed, offs))
    tl.store(uniform_ptr + offs, tl.rand(seed, offs))
    tl.store(normal_ptr + offs, tl.randn(seed, offs))
    first, _, third, fourth = tl.randint4x(seed, offs)
    tl.store(fourth_ptr + offs, fourth)
    # A uniform float from a 64-bit word (FlagGems' exponential_ pastes two).
    wide = (third.to(tl.uint64) << 32) | first.to(tl.uint64)
    tl.store(wide_ptr + offs, tl.uint_to_uniform_float(wide))
