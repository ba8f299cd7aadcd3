# Compile with: tlec examples/topk_radix.py --emit=tile-ir followed by these arguments:
# tlec-args: --kernel topk_radix_kernel -D BLOCK=1024 -D RADIX_BITS=8 --signature '*fp32:16, *fp32:16, *i32:16, i32, i32'
#
# Top-k over rows by radix select: one program per row finds the K-th
# largest value RADIX_BITS bits at a time (32 / RADIX_BITS passes over the
# row, each a 2^RADIX_BITS-bin histogram of the next digit among the values
# that still match the digits found so far), then one more pass writes the K largest values and
# their indices: every value above the K-th, and the first ties at it, in
# index order (torch.topk(..., sorted=False) up to order).
#
# topk_radix_kernel counts into a block-local counter buffer (tle.gpu.alloc:
# shared memory on a GPU, LDS on AMD, Workgroup memory on SPIR-V, a
# scratchpad on a DSA) with local_ptr atomics, the buffer living across the
# whole chunk loop, and finds the digit and compacts the output with
# tle.cumsum (exclusive prefix sum and total in one scan).
# topk_radix_plain_kernel is the same algorithm in plain Triton: a
# tl.histogram per chunk summed in registers, tl.cumsum for the scans.
import torch
import triton
import triton.language as tl
import triton.experimental.tle as tle


@triton.jit
def _ordered_key(x):
    # Float bits -> int32 whose signed order is the float order: negative
    # floats have their magnitude bits flipped.
    bits = x.to(tl.int32, bitcast=True)
    return bits ^ ((bits >> 31) & 0x7FFFFFFF)


@triton.jit
def topk_radix_kernel(x_ptr, vals_ptr, idx_ptr, N, K, BLOCK: tl.constexpr, RADIX_BITS: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * N
    sign = -2147483647 - 1
    hist = tle.gpu.alloc([1 << RADIX_BITS], dtype=tl.int32, scope="block", init_value=0)
    bins = tl.arange(0, 1 << RADIX_BITS)
    # Digits are taken from the key with its sign bit flipped, so that
    # unsigned digit order is the value order.
    prefix = 0
    hi_mask = 0
    k_left = K
    for p in tl.static_range(32 // RADIX_BITS):
        for start in range(0, N, BLOCK):
            offs = start + tl.arange(0, BLOCK)
            m = offs < N
            ukey = _ordered_key(tl.load(x_row + offs, mask=m, other=0.0)) ^ sign
            match = m & ((ukey & hi_mask) == prefix)
            digit = (ukey >> (32 - RADIX_BITS * (p + 1))) & ((1 << RADIX_BITS) - 1)
            tl.atomic_add(tle.gpu.local_ptr(hist, (digit, )), 1, mask=match, sem="relaxed", scope="cta")
        tl.debug_barrier()
        h = tl.load(tle.gpu.local_ptr(hist))
        tl.debug_barrier()
        tl.store(tle.gpu.local_ptr(hist), tl.zeros([1 << RADIX_BITS], dtype=tl.int32))
        # above[b]: matching values whose digit is larger than b. The K-th
        # largest has the digit b where above[b] < k_left <= above[b] + h[b].
        before, total = tle.cumsum(h, axis=0)
        above = total - before - h
        digit_k = tl.sum((above >= k_left).to(tl.int32), axis=0)
        k_left = k_left - tl.sum(tl.where(bins == digit_k, above, 0), axis=0)
        prefix = prefix | (digit_k << (32 - RADIX_BITS * (p + 1)))
        hi_mask = -(1 << (32 - RADIX_BITS * (p + 1)))
        tl.debug_barrier()

    # k_left values equal to the K-th largest are still wanted: take the
    # first ones in index order.
    kth = prefix ^ sign
    out_base = 0
    ties_taken = 0
    for start in range(0, N, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < N
        x = tl.load(x_row + offs, mask=m, other=0.0)
        key = _ordered_key(x)
        eq = m & (key == kth)
        eq_before, eq_total = tle.cumsum(eq.to(tl.int32), axis=0)
        take = (m & (key > kth)) | (eq & (ties_taken + eq_before < k_left))
        pos, n_take = tle.cumsum(take.to(tl.int32), axis=0)
        tl.store(vals_ptr + row * K + out_base + pos, x, mask=take)
        tl.store(idx_ptr + row * K + out_base + pos, offs, mask=take)
        out_base += n_take
        ties_taken += eq_total


@triton.jit
def topk_radix_plain_kernel(x_ptr, vals_ptr, idx_ptr, N, K, BLOCK: tl.constexpr,
                            RADIX_BITS: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * N
    sign = -2147483647 - 1
    bins = tl.arange(0, 1 << RADIX_BITS)
    prefix = 0
    hi_mask = 0
    k_left = K
    for p in tl.static_range(32 // RADIX_BITS):
        h = tl.zeros([1 << RADIX_BITS], dtype=tl.int32)
        for start in range(0, N, BLOCK):
            offs = start + tl.arange(0, BLOCK)
            m = offs < N
            ukey = _ordered_key(tl.load(x_row + offs, mask=m, other=0.0)) ^ sign
            match = m & ((ukey & hi_mask) == prefix)
            digit = (ukey >> (32 - RADIX_BITS * (p + 1))) & ((1 << RADIX_BITS) - 1)
            # Values that do not match land in bin 0 and are taken out again
            # (tl.histogram has no mask in every Triton version).
            h += tl.histogram(tl.where(match, digit, 0), 1 << RADIX_BITS)
            h -= tl.where(bins == 0, BLOCK - tl.sum(match.to(tl.int32), axis=0), 0)
        inclusive = tl.cumsum(h, axis=0)
        above = tl.sum(h, axis=0) - inclusive
        digit_k = tl.sum((above >= k_left).to(tl.int32), axis=0)
        k_left = k_left - tl.sum(tl.where(bins == digit_k, above, 0), axis=0)
        prefix = prefix | (digit_k << (32 - RADIX_BITS * (p + 1)))
        hi_mask = -(1 << (32 - RADIX_BITS * (p + 1)))

    kth = prefix ^ sign
    out_base = 0
    ties_taken = 0
    for start in range(0, N, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < N
        x = tl.load(x_row + offs, mask=m, other=0.0)
        key = _ordered_key(x)
        eq = (m & (key == kth)).to(tl.int32)
        eq_before = tl.cumsum(eq, axis=0) - eq
        take = ((m & (key > kth)) | ((eq != 0) & (ties_taken + eq_before < k_left))).to(tl.int32)
        pos = tl.cumsum(take, axis=0) - take
        tl.store(vals_ptr + row * K + out_base + pos, x, mask=take != 0)
        tl.store(idx_ptr + row * K + out_base + pos, offs, mask=take != 0)
        out_base += tl.sum(take, axis=0)
        ties_taken += tl.sum(eq, axis=0)


# Long rows on many blocks: one program per (row, split of SPLIT columns)
# instead of one per row, so that a few rows still fill the GPU. Each radix
# pass is one launch of topk_radix_split_hist_kernel: every program counts
# the digits of its split in a block-local histogram (tle.gpu.alloc,
# local_ptr atomics) and adds it to the row's histogram of that pass in
# global memory (hist: rows x passes x 2^RADIX_BITS int32, zeroed before
# the first pass). The digits found so far are replayed by every program
# from the merged histograms of the earlier passes (a few hundred counters),
# so no state is kept between launches. topk_radix_split_gather_kernel then
# writes the values above the K-th largest and ties at it through two
# per-row output counters (counts: rows x 2 int32, zeroed): the order in
# the output, and which of several ties are taken, depend on timing
# (torch.topk(..., sorted=False) makes no promise either).
@triton.jit
def _replay_digits(hist_row, K, PASSES, RADIX_BITS: tl.constexpr):
    bins = tl.arange(0, 1 << RADIX_BITS)
    prefix = 0
    hi_mask = 0
    k_left = K
    for q in range(0, PASSES):
        h = tl.load(hist_row + q * (1 << RADIX_BITS) + bins)
        before, total = tle.cumsum(h, axis=0)
        above = total - before - h
        digit_k = tl.sum((above >= k_left).to(tl.int32), axis=0)
        k_left = k_left - tl.sum(tl.where(bins == digit_k, above, 0), axis=0)
        shift = 32 - RADIX_BITS * (q + 1)
        prefix = prefix | (digit_k << shift)
        hi_mask = -(1 << shift)
    return prefix, hi_mask, k_left


@triton.jit
def topk_radix_split_hist_kernel(x_ptr, hist_ptr, N, K, SPLIT, PASS, BLOCK: tl.constexpr,
                                 RADIX_BITS: tl.constexpr):
    row = tl.program_id(0)
    part = tl.program_id(1)
    x_row = x_ptr + row * N
    hist_row = hist_ptr + row * ((32 // RADIX_BITS) << RADIX_BITS)
    sign = -2147483647 - 1
    prefix, hi_mask, k_left = _replay_digits(hist_row, K, PASS, RADIX_BITS)
    local = tle.gpu.alloc([1 << RADIX_BITS], dtype=tl.int32, scope="block", init_value=0)
    shift = 32 - RADIX_BITS * (PASS + 1)
    end = (part + 1) * SPLIT
    for start in range(part * SPLIT, end, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = (offs < N) & (offs < end)
        ukey = _ordered_key(tl.load(x_row + offs, mask=m, other=0.0)) ^ sign
        match = m & ((ukey & hi_mask) == prefix)
        digit = (ukey >> shift) & ((1 << RADIX_BITS) - 1)
        tl.atomic_add(tle.gpu.local_ptr(local, (digit, )), 1, mask=match, sem="relaxed", scope="cta")
    tl.debug_barrier()
    bins = tl.arange(0, 1 << RADIX_BITS)
    h = tl.load(tle.gpu.local_ptr(local))
    tl.atomic_add(hist_row + (PASS << RADIX_BITS) + bins, h, mask=h > 0, sem="relaxed")


@triton.jit
def topk_radix_split_gather_kernel(x_ptr, hist_ptr, counts_ptr, vals_ptr, idx_ptr, N, K, SPLIT,
                                   BLOCK: tl.constexpr, RADIX_BITS: tl.constexpr):
    row = tl.program_id(0)
    part = tl.program_id(1)
    x_row = x_ptr + row * N
    hist_row = hist_ptr + row * ((32 // RADIX_BITS) << RADIX_BITS)
    sign = -2147483647 - 1
    prefix, hi_mask, k_left = _replay_digits(hist_row, K, 32 // RADIX_BITS, RADIX_BITS)
    kth = prefix ^ sign
    n_above = K - k_left
    end = (part + 1) * SPLIT
    for start in range(part * SPLIT, end, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = (offs < N) & (offs < end)
        x = tl.load(x_row + offs, mask=m, other=0.0)
        key = _ordered_key(x)
        above = m & (key > kth)
        eq = m & (key == kth)
        a_pos, a_n = tle.cumsum(above.to(tl.int32), axis=0)
        e_pos, e_n = tle.cumsum(eq.to(tl.int32), axis=0)
        a_base = tl.atomic_add(counts_ptr + row * 2, a_n, sem="relaxed")
        e_base = tl.atomic_add(counts_ptr + row * 2 + 1, e_n, sem="relaxed")
        take_eq = eq & (e_base + e_pos < k_left)
        tl.store(vals_ptr + row * K + a_base + a_pos, x, mask=above)
        tl.store(idx_ptr + row * K + a_base + a_pos, offs, mask=above)
        tl.store(vals_ptr + row * K + n_above + e_base + e_pos, x, mask=take_eq)
        tl.store(idx_ptr + row * K + n_above + e_base + e_pos, offs, mask=take_eq)


if __name__ == "__main__":
    x = torch.randn(64, 32768, device="cuda")
    k = 256
    vals = torch.empty(64, k, device="cuda")
    idx = torch.empty(64, k, device="cuda", dtype=torch.int32)
    topk_radix_kernel[(64, )](x, vals, idx, 32768, k, BLOCK=1024, RADIX_BITS=8)
    ref = torch.topk(x, k, dim=1).values
    torch.testing.assert_close(vals.sort(dim=1, descending=True).values, ref)
