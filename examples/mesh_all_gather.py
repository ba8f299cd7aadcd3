# Compile with: tlec examples/mesh_all_gather.py --emit=tile-ir followed by these arguments:
# tlec-args: --kernel all_gather_sum -D DEVICES=1 -D BLOCKS=4 -D BLOCK=256 --signature '*fp32:16, *fp32:16, *i32:16, *fp32:16'
#
# All-gather written with the TLE-Lite device mesh: every device puts its
# tile of x into slot `me` of every device's `gathered` buffer (tle.remote),
# signals the owner's flag, waits until all DEVICES tiles have arrived in
# its own buffer, and sums them. The block level splits each device's
# vector over BLOCKS programs, each with its own flag.
#
# A kernel runs on one device for now (issue 15), so DEVICES must be 1:
# the mesh is then the degenerate one, out = x, and every mesh operation
# (shard ids, remote pointers, signals, the wait, the barrier) runs.
# `flags` must be zero before the launch.
import triton
import triton.language as tl
import triton.experimental.tle as tle


@triton.jit
def all_gather_sum(x_ptr, gathered_ptr, flags_ptr, out_ptr,
                   DEVICES: tl.constexpr, BLOCKS: tl.constexpr,
                   BLOCK: tl.constexpr):
    mesh = tle.device_mesh(device=DEVICES, block=BLOCKS)
    me = tle.shard_id(mesh, "device")
    blk = tle.shard_id(mesh, "block")
    offs = blk * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    for d in tl.static_range(DEVICES):
        slot = tle.remote(gathered_ptr, d, space="device") + me * BLOCKS * BLOCK
        tl.store(slot + offs, x)
        tle.signal(tle.remote(flags_ptr, d, space="device") + blk, 1, kind="add")
    tle.signal_wait(flags_ptr + blk, DEVICES, cmp="ge")
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for d in tl.static_range(DEVICES):
        acc += tl.load(gathered_ptr + d * BLOCKS * BLOCK + offs)
    tl.store(out_ptr + offs, acc)
    tle.distributed_barrier(mesh, "device")
