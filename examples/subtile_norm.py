# Compile with: tlec examples/subtile_norm.py --emit=tile-ir followed by these arguments:
# tlec-args: --kernel subtile_norm_kernel -D BLOCK_M=64 -D N=128 -D SUB_M=16 --signature '*fp32:16, *fp32:16, i32, fp32'
#
# Row-wise RMS normalization of a BLOCK_M x N tile, processed SUB_M rows at
# a time with TLE-Lite sub-tile views: tle.extract_tile takes the i-th
# SUB_M x N tile (row-major), tle.insert_tile writes the result back. No
# offsets or masks are built by hand for the sub-tiles.
import torch
import triton
import triton.language as tl
import triton.experimental.tle as tle


@triton.jit
def subtile_norm_kernel(x_ptr, y_ptr, num_rows, eps, BLOCK_M: tl.constexpr, N: tl.constexpr,
                        SUB_M: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, N)
    offs = rows[:, None] * N + cols[None, :]
    mask = rows[:, None] < num_rows
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.zeros((BLOCK_M, N), dtype=tl.float32)
    for i in tl.static_range(BLOCK_M // SUB_M):
        t = tle.extract_tile(x, i, (SUB_M, N))
        rms = tl.sqrt(tl.sum(t * t, axis=1) / N + eps)
        y = tle.insert_tile(y, t / rms[:, None], i)
    tl.store(y_ptr + offs, y, mask=mask)


if __name__ == "__main__":
    x = torch.randn(1000, 128, device="cuda")
    y = torch.empty_like(x)
    subtile_norm_kernel[(triton.cdiv(1000, 64), )](x, y, 1000, 1e-6, BLOCK_M=64, N=128, SUB_M=16)
    ref = x / torch.sqrt((x * x).mean(dim=1, keepdim=True) + 1e-6)
    torch.testing.assert_close(y, ref)
