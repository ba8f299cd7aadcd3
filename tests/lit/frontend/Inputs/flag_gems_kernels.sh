#!/usr/bin/env bash
# Compiles a sample of FlagGems' kernels, unchanged, for the H200, with
# the signatures and constexprs FlagGems' host code would launch them with.
# Usage: flag_gems_kernels.sh TLEC FLAG_GEMS_DIR; prints one line per
# failure and a count.
TLEC=$1 G=$2 ok=0 bad=0
t() {
  local f=$1 k=$2 sig=$3
  shift 3
  if err=$("$TLEC" "$G/ops/$f" --kernel "$k" --target h200 "$@" \
             --signature "$sig" --emit=asm --no-cache -o /dev/null 2>&1); then
    ok=$((ok + 1))
  else
    bad=$((bad + 1))
    echo "FAILED $f $k: $(echo "$err" | head -1)"
  fi
}
t sum.py sum_kernel_1 '*fp16:16, *fp32:16, i32' -D BLOCK_SIZE=1024
t sum.py sum_kernel_2 '*fp32:16, *fp32:16, i32' -D BLOCK_MID=64
t mean.py mean_kernel_1 '*fp32:16, *fp32:16, i32' -D BLOCK_SIZE=1024
t max.py max_kernel_1 '*fp32:16, *fp32:16, i32' -D BLOCK_SIZE=1024
t argmax.py argmax_kernel_1 '*fp32:16, *fp32:16, *i64:16, i32' -D BLOCK_SIZE=1024
t argmax.py argmax_kernel_2 '*fp32:16, *i64:16, *i64:16, i32' -D BLOCK_MID=64
t argmin.py argmin_kernel_1 '*fp32:16, *fp32:16, *i64:16, i32' -D BLOCK_SIZE=1024
t softmax.py softmax_kernel_inner '*fp32:16, *fp32:16, i32, i32' -D TILE_N=1024 -D ONE_TILE_PER_CTA=1
t softmax.py softmax_kernel_inner '*fp32:16, *fp32:16, i32, i32' -D TILE_N=1024 -D ONE_TILE_PER_CTA=0
t rms_norm.py rms_norm_kernel '*fp16:16, *fp32:16, *fp16:16, *fp16:16, i32, i32, i32, i32, i32, fp32' -D BLOCK_SIZE=1024
t layernorm.py layer_norm_persistent_kernel '*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, i32, i32, fp32' -D TILE_N=1024
t embedding.py embedding_kernel '*fp16:16, *i64:16, *fp16:16' -D N=512 -D BLOCK_SIZE=512
t log_softmax.py log_softmax_kernel '*fp32:16, *fp32:16, i32, i32, i32'
t var_mean.py var_mean_welford_kernel '*fp32:16, *fp32:16, *fp32:16, i32, i32, i32' -D BLOCK_M=4 -D BLOCK_N=256
t vector_norm.py l2_norm_kernel '*fp32:16, *fp32:16, i32, i32' -D BLOCK_M=4 -D BLOCK_N=256
t index_select.py index_select_kernel '*fp32:16, *fp32:16, i32, i32, *i64:16, i32' -D BLOCK_M=4 -D BLOCK_N=256
t cumsum.py normed_cumsum_kernel '*fp32:16, *fp32:16, i32' -D BLOCK=1024
t mse_loss.py kernel_1 '*fp32:16, *fp32:16, *fp32:16, i32' -D BLOCK_SIZE=1024 -D reduction=1
t dropout.py dropout_forward_kernel '*fp32:16, *fp32:16, *i1:16, i32, fp32, i64, i64' -D BLOCK=1024
t cumsum.py scan_part_sum_kernel '*fp32:16, *fp32:16, *fp32:16, i32, i32' -D BLOCK_SIZE=1024
# Module constants from torch.finfo / torch.iinfo.
t topk.py topk_stage1_kernel '*fp32:16, *i64:16, *fp32:16, i32' -D N=4096 -D CHUNK_SIZE=1024 -D DESCENDING=1
# FlagTree TLE's radix top-k in shared memory: tl.dtype(f"uint{n}"), tl.sort,
# a reverse tl.cumsum.
t topk.py topk_kernel_radix_tle '*fp32:16, *fp32:16, *i64:16, i32, i32, i32' -D K=8 -D K_PAD=8 -D BLOCK_N=1024 -D RADIX_BITS=4
# Relative imports (`from ..utils import triton_lang_extension as tle`).
t logspace.py logspace_kernel '*fp32:16, i32, fp32, fp32, i32' -D log2_base=3.3219 -D BLOCK_SIZE=1024
# Pointwise bodies (FlagGems wraps them in generated kernels) that reach
# libdevice through flag_gems.utils.tl_extra_shim, compiled as functions of
# scalars.
t tanh.py tanh_kernel 'fp32'
t gelu.py gelu_tanh 'fp32'
t pow.py pow_func 'fp32, fp32'
t tan.py tan_func 'fp32'
t acos.py acos_kernel 'fp32'
t atan.py atan_kernel 'fp32'
# tl.interleave (a vendor backend's complex-number output).
t ../runtime/backend/_metax/ops/polar.py polar_kernel_kernel '*fp32:16, *fp32:16, *fp32:16' -D n_input=4096 -D n_output=8192 -D BLOCK_SIZE=1024 -D num_warps=4
# An if choosing between pointer arguments (a select of scalar pointers).
t cat.py cat_copy_func_kernel_4 '*fp32:16, *fp32:16, *fp32:16, *fp32:16, *fp32:16, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32' -D BLOCK_X=1024
# tl.associative_scan over a tuple (values and indices).
t cummax.py scan_part_max_kernel '*fp32:16, *fp32:16, *i64:16, *i64:16, *fp32:16, *i64:16, i32' -D BLOCK_SIZE=1024 -D NEED_PARTIAL=1 -D USE_OUT_INDICES=0
# Bitonic sort through triton.language.standard._log2.
t sort.py sort_kernel '*fp32:16, *fp32:16, *i64:16' -D N=256 -D BLOCK_SIZE=256 -D DESCENDING=0 -D IS_FLOAT=1
# A where between a boolean block and a bool constexpr, carried by a loop.
t isin.py isin_by_comparation_kernel '*fp32:16, *fp32:16, *i1:16, i32, i32, i32' -D BLOCK_M=16 -D BLOCK_N=64 -D invert=False
# Block pointers advanced through a K loop; in the grouped GEMM made per
# tile inside a loop from bases loaded as int64 (tl.pointer_type).
t group_gemm.py grouped_gemm_kernel 'i32, i32, i32, *i64:16, *i64:16, *i64:16, *i64:16, *i32:16, *i32:16, i32' -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 -D GROUP_M=8 -D alpha=1 -D beta=1
t ../fused/FLA/chunk_o.py chunk_fwd_kernel_o '*bf16:16, *bf16:16, *bf16:16, *bf16:16, *fp32:16, *bf16:16, *i32:16, *i32:16, fp32, i32' -D H=4 -D Hg=4 -D K=128 -D V=128 -D BT=64 -D BK=64 -D BV=64 -D USE_G=0 -D IS_VARLEN=1
# A loop counting down: range(ndim - 1, -1, -1).
t nonzero.py nonzero_kernel '*i1:16, *i64:16, *i64:16, i32, *i64:16' -D ndim=3 -D BLOCK_SIZE=1024
# Matrix kernels on wgmma: FlagGems' general and self-transposed mm (rows
# wrapped by % M, a peeled last K step), the batched mm with its DIVISIBLE_*
# switches, addmm, and its attention forward (block pointers, causal stages,
# an optional mask).
t mm.py mm_kernel_general '*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32, i32, i32, i32, i32, i32' -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=32 -D GROUP_M=8 --num-stages 3
t mm.py mm_kernel_syrk '*fp16:16, *fp16:16, i32, i32, i32, i32, i32, i32' -D BLOCK_M=128 -D BLOCK_K=32
t bmm.py bmm_kernel '*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32' -D TILE_M=128 -D TILE_N=128 -D TILE_K=32 -D GROUP_M=8 -D DIVISIBLE_M=1 -D DIVISIBLE_N=1 -D DIVISIBLE_K=1
t bmm.py bmm_kernel '*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32' -D TILE_M=64 -D TILE_N=64 -D TILE_K=32 -D GROUP_M=8 -D DIVISIBLE_M=0 -D DIVISIBLE_N=0 -D DIVISIBLE_K=0
t addmm.py addmm_kernel '*fp16:16, *fp16:16, *fp16:16, *fp16:16, fp32, fp32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32' -D BLOCK_SIZE_M=128 -D BLOCK_SIZE_N=128 -D BLOCK_SIZE_K=32
attn='*fp16:16, *fp16:16, *fp16:16, *fp16:16, fp32, *fp32:16, *fp16:16'
for i in $(seq 25); do attn="$attn, i32"; done
t attention.py _attn_fwd "$attn" -D GROUP_HEAD=1 -D HEAD_DIM=64 -D BLOCK_M=128 -D BLOCK_N=64 -D STAGE=1 -D HAS_ATTN_MASK=0 -D PRE_LOAD_V=0 --num-warps 8 --num-stages 3
t attention.py _attn_fwd "$attn" -D GROUP_HEAD=1 -D HEAD_DIM=64 -D BLOCK_M=128 -D BLOCK_N=64 -D STAGE=3 -D HAS_ATTN_MASK=1 -D PRE_LOAD_V=1 --num-warps 8 --num-stages 3
# The grouped mm through host tensor descriptors (TensorDescriptor arguments
# for A, B and C; 4 groups, N and K bound as FlagGems' autotuner keys them).
t group_gemm.py grouped_mm_tma_kernel 'tensordesc<fp16[128, 64]>, tensordesc<fp16[64, 128]>, tensordesc<fp16[128, 128]>, *fp16:16, *i32:16, i32' -D num_groups=4 -D N=512 -D K=256 -D stride_cm=512 -D stride_cn=1 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 -D GROUP_M=8 --num-stages 3
echo "$ok compiled, $bad failed"
