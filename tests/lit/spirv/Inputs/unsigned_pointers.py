import triton
import triton.language as tl


@triton.jit
def widen(x_ptr, out_ptr, n, MODE: tl.constexpr):
    # A *u8 argument loads uint8 however it is reached: pointer arithmetic,
    # a block pointer, a tensor descriptor, a tl.where between pointers, a
    # pointer carried by a loop.
    offs = tl.arange(0, 64)
    mask = offs < n
    if MODE == 0:
        x = tl.load(x_ptr + offs, mask=mask)
    elif MODE == 1:
        p = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (64,), (0,))
        x = tl.load(p, boundary_check=(0,))
    elif MODE == 2:
        d = tl.make_tensor_descriptor(x_ptr, [n], [1], [64])
        x = d.load([0])
    elif MODE == 3:
        q = tl.where(n > 0, x_ptr, x_ptr + 1)
        x = tl.load(q + offs, mask=mask)
    else:
        q = x_ptr
        for i in range(2):
            q = q + 0
        x = tl.load(q + offs, mask=mask)
    tl.static_print(x_ptr.dtype, x.dtype)
    tl.store(out_ptr + offs, x.to(tl.float32) / 2, mask=mask)


@triton.jit
def narrow(x_ptr, out_ptr, n):
    # Stores convert to the pointee's type: fp32 200.0 to uint8 is 200.
    offs = tl.arange(0, 64)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)
