"""Row sorts through triton.language.standard's tl.sort, compiled by tlec
(bench/prepare_sort_h200.sh) and by Triton (bench/sort_h200.py) from this
one source."""
import triton
import triton.language as tl


@triton.jit
def row_sort_kernel(x_ptr, y_ptr, N: tl.constexpr, DESCENDING: tl.constexpr):
    row = tl.program_id(0)
    offs = row * N + tl.arange(0, N)
    tl.store(y_ptr + offs, tl.sort(tl.load(x_ptr + offs), descending=DESCENDING))
