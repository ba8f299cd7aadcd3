import triton
import triton.language as tl


# triton.language's random numbers: the same streams as Triton's for a seed
# and offsets.
@triton.jit
def random_kernel(int_ptr, uniform_ptr, normal_ptr, fourth_ptr, seed,
                  BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(int_ptr + offs, tl.randint(seed, offs))
    tl.store(uniform_ptr + offs, tl.rand(seed, offs))
    tl.store(normal_ptr + offs, tl.randn(seed, offs))
    _, _, _, fourth = tl.randint4x(seed, offs)
    tl.store(fourth_ptr + offs, fourth)
