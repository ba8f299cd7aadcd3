# MoE align-block-size in the style of FlagTree's TLE tutorials: expert
# counts are accumulated in a block-local buffer with atomics, then turned
# into padded per-expert offsets.
import torch
import triton
import triton.language as tl
import triton.experimental.tle.language.gpu as tle

NUM_THREADS: tl.constexpr = 256
PAD_SENTINEL = tl.constexpr(-1)


def ceil_div(a, b):
    return (a + b - 1) // b


@triton.jit
def moe_align_block_size_kernel(
    topk_ids_ptr,
    sorted_token_ids_ptr,
    expert_ids_ptr,
    num_tokens_post_pad_ptr,
    numel,
    num_experts: tl.constexpr,
    block_size: tl.constexpr,
    BLOCK_TOKENS: tl.constexpr,
):
    pid = tl.program_id(0)
    # Per-block counter buffer in shared memory, zero-initialized.
    counts = tle.gpu.alloc([num_experts], dtype=tl.int32, layout=None,
                           scope=tle.gpu.smem, init_value=0)
    offs = pid * BLOCK_TOKENS + tl.arange(0, BLOCK_TOKENS)
    mask = offs < numel
    experts = tl.load(topk_ids_ptr + offs, mask=mask, other=0)
    count_ptrs = tle.gpu.local_ptr(counts, (experts, ))
    tl.atomic_add(count_ptrs, 1, mask=mask, sem="relaxed", scope="cta")
    tl.debug_barrier()

    all_experts = tl.arange(0, num_experts)
    local = tl.load(tle.gpu.local_ptr(counts, (all_experts, )))
    padded = tl.cdiv(local, block_size) * block_size
    exclusive = tl.cumsum(padded, axis=0) - padded
    total = tl.sum(padded, axis=0)
    if pid == 0:
        tl.store(num_tokens_post_pad_ptr, total)
    for e in tl.static_range(0, num_experts):
        start = tl.sum(tl.where(all_experts == e, exclusive, 0))
        n = tl.sum(tl.where(all_experts == e, padded, 0))
        for i in range(0, n, block_size):
            tl.store(expert_ids_ptr + (start + i) // block_size, e)
    rank = tl.atomic_add(count_ptrs, -1, mask=mask) - 1
    tl.store(sorted_token_ids_ptr + rank, offs, mask=mask & (rank >= 0))


def moe_align_block_size(topk_ids: torch.Tensor, block_size: int, num_experts: int):
    max_num_tokens_padded = topk_ids.numel() + num_experts * (block_size - 1)
    sorted_ids = torch.empty((max_num_tokens_padded, ), dtype=torch.int32, device=topk_ids.device)
    sorted_ids.fill_(topk_ids.numel())
    expert_ids = torch.empty((ceil_div(max_num_tokens_padded, block_size), ), dtype=torch.int32,
                             device=topk_ids.device)
    num_tokens_post_pad = torch.empty((1), dtype=torch.int32, device=topk_ids.device)
    grid = (triton.cdiv(topk_ids.numel(), 1024), )
    moe_align_block_size_kernel[grid](topk_ids, sorted_ids, expert_ids, num_tokens_post_pad, topk_ids.numel(),
                                      num_experts, block_size, BLOCK_TOKENS=1024)
    return sorted_ids, expert_ids, num_tokens_post_pad


if __name__ == "__main__":
    topk_ids = torch.randint(0, 64, (4096, 2), device="cuda", dtype=torch.int32)
    print(f"{moe_align_block_size(topk_ids, 64, 64)[2].item()=}")
