# Misuses of the TLE surface API; api_errors.test lowers one kernel each
# and checks the diagnostic.
import triton
import triton.language as tl
import triton.experimental.tle as tle
import triton.experimental.tle.language.raw as tle_raw
from triton.experimental.tle.raw import dialect


@dialect(name="ptx")
def no_source(a, b):
    pass


@dialect(name="cobol")
def bad_language(a) -> tl.int32:
    """ADD A TO B."""


@dialect(name="ptx", constraints="=r,r")
def neg_ptx(a) -> tl.int32:
    """neg.s32 $0, $1;"""


@dialect(name="ptx", constraints="=r,r")
def neg_ptx2(a) -> tl.int32:
    """sub.s32 $0, 0, $1;"""


@dialect(name="opencl", file="missing_neg.cl")
def neg_missing_file(a) -> tl.int32:
    pass


@triton.jit
def alloc_bad_dtype(x_ptr):
    buf = tle.gpu.alloc([16], dtype=x_ptr.dtype)


@triton.jit
def alloc_bad_shape(x_ptr):
    buf = tle.gpu.alloc([16, 0], dtype=tl.float32)


@triton.jit
def alloc_bad_scope(x_ptr):
    buf = tle.gpu.alloc([16], dtype=tl.float32, scope=3)


@triton.jit
def alloc_unknown_keyword(x_ptr):
    buf = tle.gpu.alloc([16], dtype=tl.float32, scopes="block")


@triton.jit
def layout_rank_mismatch(x_ptr):
    buf = tle.gpu.alloc([16, 4], dtype=tl.float32, layout=tle.gpu.padded_layout(order=(0, )))


@triton.jit
def layout_bad_padding(x_ptr):
    lay = tle.gpu.padded_layout(order=(0, ), pad_interval=32)


@triton.jit
def local_ptr_not_buffer(x_ptr):
    p = tle.gpu.local_ptr(x_ptr, (tl.arange(0, 16), ))


@triton.jit
def local_ptr_wrong_rank(x_ptr):
    buf = tle.gpu.alloc([16, 4], dtype=tl.float32)
    p = tle.gpu.local_ptr(buf, (tl.arange(0, 16), ))


@triton.jit
def local_ptr_float_index(x_ptr):
    buf = tle.gpu.alloc([16], dtype=tl.float32)
    p = tle.gpu.local_ptr(buf, (tl.arange(0, 16).to(tl.float32), ))


@triton.jit
def copy_shape_mismatch(x_ptr):
    buf = tle.gpu.alloc([32], dtype=tl.float32)
    tle.gpu.copy(x_ptr + tl.arange(0, 16), buf, [16])


@triton.jit
def copy_with_offsets(x_ptr):
    buf = tle.gpu.alloc([16], dtype=tl.float32)
    tle.gpu.copy(x_ptr + tl.arange(0, 16), buf, [16], [0])


@triton.jit
def barrier_wait_not_barrier(x_ptr):
    tle.gpu.barrier_wait(x_ptr, 0)


@triton.jit
def pipe_no_fields(x_ptr):
    p = tle.pipe(capacity=2)


@triton.jit
def pipe_bad_field(x_ptr):
    p = tle.pipe(capacity=2, x="float32")


@triton.jit
def pipe_commit_arity(x_ptr):
    p = tle.pipe(x=(tl.float32, (16, )), y=tl.int32)
    p.writer_acquire()
    p.writer_commit(tl.load(x_ptr + tl.arange(0, 16)))


@triton.jit
def pipe_handles(x_ptr):
    p = tle.pipe(x=tl.int32)
    w = p.writer()


@triton.jit
def mesh_unknown_level(x_ptr):
    m = tle.device_mesh(device=8, rack=2)


@triton.jit
def shard_id_missing_level(x_ptr):
    m = tle.device_mesh(device=8)
    i = tle.shard_id(m, "node")


@triton.jit
def shard_id_not_mesh(x_ptr):
    i = tle.shard_id(x_ptr, "device")


@triton.jit
def remote_bad_space(x_ptr):
    p = tle.remote(x_ptr, 1, space="galaxy")


@triton.jit
def signal_float_word(x_ptr):
    tle.signal(x_ptr, 1)


@triton.jit
def load_async_not_constexpr(x_ptr, flag):
    v = tle.load(x_ptr, is_async=flag)


@triton.jit
def cumsum_bad_axis(x_ptr):
    e, t = tle.cumsum(tl.load(x_ptr + tl.arange(0, 16)), axis=1)


@triton.jit
def sharding_unsupported(x_ptr):
    s = tle.sharding(x_ptr)


@triton.jit
def warp_specialize_counts(x_ptr):
    tle.gpu.warp_specialize([(cumsum_bad_axis, (x_ptr, ))], [4])


@triton.jit
def parallel_leak(x_ptr):
    acc = tl.zeros((16, ), dtype=tl.float32)
    for i in tle.dsa.parallel(4):
        acc = acc + 1.0


@triton.jit
def raw_no_source(x_ptr):
    r = tle_raw.call(no_source, [1, 2])


@triton.jit
def raw_bad_language(x_ptr):
    r = tle_raw.call(bad_language, [1])


@triton.jit
def raw_arity(x_ptr):
    r = tle_raw.call(neg_ptx, [1, 2])


@triton.jit
def raw_duplicate_language(x_ptr):
    r = tle_raw.call([neg_ptx, neg_ptx2], [1])


@triton.jit
def raw_missing_file(x_ptr):
    r = tle_raw.call(neg_missing_file, [1])


@triton.jit
def raw_not_dialect(x_ptr):
    r = tle_raw.call(alloc_bad_dtype, [x_ptr])


@triton.jit
def raw_args_not_list(x_ptr):
    r = tle_raw.call(neg_ptx, 1)


@triton.jit
def raw_called_directly(x_ptr):
    r = neg_ptx(1)


@triton.jit
def signal_value_too_wide(flag_ptr):
    tle.signal_wait(flag_ptr, 3000000000, cmp="ge")
