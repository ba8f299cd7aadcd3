import triton
import triton.language as tl


# Triton's dtype predicates on pointer element types, folded at compile
# time; each true one sets a bit of the stored code.
@triton.jit
def dtype_predicates(out_ptr, i64_ptr, bf16_ptr, f8_ptr):
    code = 0
    if i64_ptr.dtype.element_ty.is_int64():
        code += 1
    if i64_ptr.dtype.element_ty.is_uint64():
        code += 2
    if tl.uint32.is_uint32():
        code += 4
    if tl.uint32.is_int32():
        code += 8
    if bf16_ptr.dtype.element_ty.is_standard_floating():
        code += 16
    if f8_ptr.dtype.element_ty.is_standard_floating():
        code += 32
    if out_ptr.dtype.element_ty.is_int32():
        code += 64
    tl.store(out_ptr, code)
