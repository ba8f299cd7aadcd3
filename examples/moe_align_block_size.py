# Compile with: tlec examples/moe_align_block_size.py --emit=tile-ir followed by these arguments:
# tlec-args: --kernel moe_align_block_size_kernel -D NUM_EXPERTS=64 -D BLOCK_SIZE=16 -D BLOCK_TOKENS=1024 --signature '*i32:16, *i32:16, *i32:16, *i32:16, i32'
#
# MoE align-block-size, first phase: count the tokens routed to each expert
# in a block-level counter buffer (shared memory on a GPU, LDS on AMD, a
# scratchpad on a DSA), then pad every expert's count to a multiple of
# BLOCK_SIZE. The counters get an explicit padded layout: one unused slot
# after every 32 counters, so that neighbouring experts' atomics hit
# different memory banks.
import torch
import triton
import triton.language as tl
import triton.experimental.tle as tle


@triton.jit
def moe_align_block_size_kernel(
    topk_ids_ptr,
    counts_ptr,
    padded_offsets_ptr,
    total_ptr,
    numel,
    NUM_EXPERTS: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
    BLOCK_TOKENS: tl.constexpr,
):
    pid = tl.program_id(0)
    counts = tle.gpu.alloc(
        [NUM_EXPERTS],
        dtype=tl.int32,
        layout=tle.gpu.padded_layout(order=(0, ), pad_interval=32, pad_amount=1),
        scope="block",
        init_value=0,
    )
    offs = pid * BLOCK_TOKENS + tl.arange(0, BLOCK_TOKENS)
    mask = offs < numel
    experts = tl.load(topk_ids_ptr + offs, mask=mask, other=0)
    tl.atomic_add(tle.gpu.local_ptr(counts, (experts, )), 1, mask=mask, sem="relaxed", scope="cta")
    tl.debug_barrier()

    # Every program publishes its counts; the padded prefix sum gives each
    # expert's first slot in the sorted token list.
    all_experts = tl.arange(0, NUM_EXPERTS)
    local = tl.load(tle.gpu.local_ptr(counts))
    tl.atomic_add(counts_ptr + all_experts, local, sem="relaxed")
    padded = tl.cdiv(local, BLOCK_SIZE) * BLOCK_SIZE
    exclusive, total = tle.cumsum(padded, axis=0)
    tl.store(padded_offsets_ptr + pid * NUM_EXPERTS + all_experts, exclusive)
    tl.store(total_ptr + pid, total)


@triton.jit
def moe_align_block_size_plain_kernel(
    topk_ids_ptr,
    counts_ptr,
    padded_offsets_ptr,
    total_ptr,
    numel,
    NUM_EXPERTS: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
    BLOCK_TOKENS: tl.constexpr,
):
    # The same counting in plain Triton, for comparison: tl.histogram of the
    # program's tokens (masked tokens land in bin 0 and are taken out again,
    # as tl.histogram has no mask in every Triton version), tl.cumsum for the
    # padded prefix sum.
    pid = tl.program_id(0)
    offs = pid * BLOCK_TOKENS + tl.arange(0, BLOCK_TOKENS)
    mask = offs < numel
    experts = tl.load(topk_ids_ptr + offs, mask=mask, other=0)
    all_experts = tl.arange(0, NUM_EXPERTS)
    masked = BLOCK_TOKENS - tl.sum(mask.to(tl.int32), axis=0)
    local = tl.histogram(experts, NUM_EXPERTS) - tl.where(all_experts == 0, masked, 0)
    tl.atomic_add(counts_ptr + all_experts, local, sem="relaxed")
    padded = tl.cdiv(local, BLOCK_SIZE) * BLOCK_SIZE
    inclusive = tl.cumsum(padded, axis=0)
    tl.store(padded_offsets_ptr + pid * NUM_EXPERTS + all_experts, inclusive - padded)
    tl.store(total_ptr + pid, tl.sum(padded, axis=0))


if __name__ == "__main__":
    topk_ids = torch.randint(0, 64, (4096, ), device="cuda", dtype=torch.int32)
    grid = (triton.cdiv(topk_ids.numel(), 1024), )
    counts = torch.zeros(64, device="cuda", dtype=torch.int32)
    offsets = torch.empty(grid[0] * 64, device="cuda", dtype=torch.int32)
    totals = torch.empty(grid[0], device="cuda", dtype=torch.int32)
    moe_align_block_size_kernel[grid](topk_ids, counts, offsets, totals, topk_ids.numel(), 64, 16, 1024)
    torch.testing.assert_close(counts, torch.bincount(topk_ids, minlength=64).int())
