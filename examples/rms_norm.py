# RMS norm forward, one program per row, as FlagGems' rms_norm_kernel.
#
# Compile with: tlec examples/rms_norm.py --emit=tile-ir followed by these arguments:
# tlec-args: -D BLOCK_SIZE=1024 --signature '*fp16:16, *fp32:16, *fp16:16, *fp16:16, i32:16, i32:16, fp32'
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(Y, INV_RMS, X, W, stride, N, eps,
                    BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    x = tl.load(X + cols, mask, other=0.0).to(tl.float32)
    var = tl.sum(x * x, axis=0) / N
    rrms = 1 / tl.sqrt(var + eps)
    w = tl.load(W + cols, mask=mask, other=0.0)
    y = (x * rrms * w).to(tl.float16)
    tl.store(Y + cols, y, mask=mask)
    tl.store(INV_RMS + row, rrms)
