import torch
import triton
import triton.language as tl

# Type limits spelled with PyTorch, as FlagGems' sort and topk write them.
_MIN_FLOAT32_VAL = tl.constexpr(torch.finfo(torch.float32).min)
_EPS_BFLOAT16 = tl.constexpr(torch.finfo(torch.bfloat16).eps)
_TINY_FLOAT16 = tl.constexpr(torch.finfo(torch.float16).tiny)
_MAX_INT8_VAL = tl.constexpr(torch.iinfo(torch.int8).max)
_MIN_INT64_VAL = tl.constexpr(torch.iinfo(torch.int64).min)


@triton.jit
def type_limits(f_ptr, i_ptr, j_ptr):
    tl.store(f_ptr, _MIN_FLOAT32_VAL)
    tl.store(f_ptr + 1, _EPS_BFLOAT16)
    tl.store(f_ptr + 2, _TINY_FLOAT16)
    tl.store(i_ptr, _MAX_INT8_VAL)
    tl.store(j_ptr, _MIN_INT64_VAL)


_NOT_A_DTYPE = tl.constexpr(torch.finfo(torch.int32).max)


@triton.jit
def bad_limit(f_ptr):
    tl.store(f_ptr, _NOT_A_DTYPE)
