# TLE-Raw, SPIR-V assembly (tests/lit/spirv/run-raw-spirv-asm.test): spirv-as
# assembles the module, which exports the function under its
# extern_func_name; spirv-link resolves the kernel's import of it.
import triton
import triton.language as tl
from triton.experimental.tle.raw import dialect
import triton.experimental.tle.language.raw as tle_raw


@dialect(name="spirv", extern_func_name="mul_add_i32")
def mul_add_spirv(a, b) -> tl.int32:
    """
    OpCapability Addresses
    OpCapability Linkage
    OpCapability Kernel
    OpCapability Int64
    OpMemoryModel Physical64 OpenCL
    OpDecorate %f LinkageAttributes "mul_add_i32" Export
    %int = OpTypeInt 32 0
    %three = OpConstant %int 3
    %fnty = OpTypeFunction %int %int %int
    %f = OpFunction %int None %fnty
    %a = OpFunctionParameter %int
    %b = OpFunctionParameter %int
    %entry = OpLabel
    %m = OpIMul %int %b %three
    %s = OpIAdd %int %a %m
    OpReturnValue %s
    OpFunctionEnd
    """


@dialect(name="spirv", extern_func_name="broken")
def broken_spirv(a, b) -> tl.int32:
    """
    OpCapability Kernel
    OpMemoryModel Physical64 OpenCL
    %int = OpTypeInt 32 0
    %bad = OpNoSuchInstruction %int
    """


@triton.jit
def mul_add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    y = tl.load(y_ptr + offs, mask=mask, other=0)
    tl.store(out_ptr + offs, tle_raw.call(mul_add_spirv, [x, y], (tl.int32, (BLOCK, ))), mask=mask)


@triton.jit
def broken_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, tle_raw.call(broken_spirv, [x, x], (tl.int32, (BLOCK, ))))
