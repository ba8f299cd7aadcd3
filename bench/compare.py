"""Check and time our kernels against PyTorch and Triton on one NVIDIA GPU.

Run by bench/run_h200.sh on the device machine. Reads bench/bin/kernels.json
(written by bench/prepare_h200.sh), and for each kernel and shape:
- draws fresh random inputs with PyTorch and writes them to files,
- runs our binary with bench/bin/tle-run-nvidia, which fills the output with
  NaN before the run, checks it here against PyTorch (relative error
  |out-ref|/|ref| in float64, by dtype) and times it with CUDA events
  (median, 256 MiB written before each launch so the L2 starts cold),
- times Triton's kernel (examples/*.py, unchanged) and PyTorch with
  triton.testing.do_bench (CUDA events, median, L2 cleared before each
  launch), after checking Triton's output the same way,
and prints a table with the ratio ours/Triton last.

Ours are also timed exactly as Triton is: the same binary is loaded into
PyTorch's CUDA context through the driver (ctypes, cuModuleLoadData) and
launched on PyTorch's current stream inside triton.testing.do_bench. That
is the number the ratio uses ("ours do_bench"); tle-run's own median
("tle-run") is printed next to it. Ours and Triton's are timed in ROUNDS
alternating do_bench rounds (the order flips each round) and each reports
the median of its rounds: kernels of 5-40 us move by 4-7% between
back-to-back do_bench calls, and timing one after the other put that drift
into the ratio; kernels under 50 us take SHORT_ROUNDS. The notes give the
range of the per-round ratios. Kernels under GRAPH_MS (a few microseconds
after do_bench's 256 MiB memset, their event pairs moving by 5-25%) are
timed a second way as well, in the notes: each side's launches over input
sets larger than the L2 together, captured in one CUDA graph, the two
graphs replayed in alternating rounds (time_graphs_interleaved). Once
checked in its own output buffers, ours
is timed writing Triton's, so that where the buffers lie is no difference
between the two. tle-run
records its start event on an idle GPU after a host copy and a synchronize,
so it counts the launch latency (about 5-10 us), which dominates kernels of
a few microseconds.

Softmax (fp32, rows) and layer norm forward (fp16 X/W/B/Y, fp32 mean and
rstd) are checked and timed the same way against Triton's tutorial kernels
(written out below) with the same BLOCK_SIZE, num_warps, num_stages and grid
rules.
"""

import ctypes

import argparse
import importlib.util
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

import numpy as np
import torch
import triton
import triton.testing
import triton.language as tl

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "bench", "bin")
TOLERANCE = {torch.float32: 1e-6, torch.float16: 1e-3, torch.bfloat16: 8e-3}

# ANCHORS.md's vector-add shapes, plus a size that is not a multiple of any
# block so the masks are exercised.
VECTOR_ADD_SIZES = [2**20, 2**26, 2**28, 2**20 + 17]
# ANCHORS.md's softmax and layer norm shapes (M rows x N columns), then
# rows of no known divisibility (masked, 4-byte pieces), short to long.
SOFTMAX_SHAPES = [(4096, 1024), (4096, 4096), (4096, 16384), (8192, 32768),
                  (4097, 1031), (4097, 4095), (4097, 16383)]
LAYER_NORM_SHAPES = [(4096, 1024), (4096, 4096), (4096, 8192), (4097, 1031)]
EPS = 1e-5


# Triton's tutorial kernels (02-fused-softmax, 05-layer-norm), as written
# there.
@triton.jit
def triton_softmax_kernel(output_ptr, input_ptr, input_row_stride,
                          output_row_stride, n_rows, n_cols,
                          BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step,
                            num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        output_ptrs = output_row_start_ptr + col_offsets
        tl.store(output_ptrs, softmax_output, mask=mask)


@triton.jit
def triton_layer_norm_fwd_fused(X, Y, W, B, Mean, Rstd, stride, N, eps,
                                BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    mean = 0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


class _TensorMap:
    """128 bytes, 64-byte aligned, for a CUtensorMap passed by value."""

    def __init__(self):
        self._raw = ctypes.create_string_buffer(128 + 64)
        base = ctypes.addressof(self._raw)
        self.address = ctypes.c_void_p(base + (-base) % 64)


class DriverKernel:
    """One of our binaries loaded into PyTorch's context with the CUDA
    driver, launched on PyTorch's current stream (so do_bench times it as it
    times Triton's)."""

    _cuda = None

    def __init__(self, path, entry, num_warps, dynamic_shared=0,
                 global_scratch=0, extra_null_args=0, tensor_maps=()):
        if DriverKernel._cuda is None:
            cuda = ctypes.CDLL("libcuda.so.1")
            cuda.cuModuleLoadData.argtypes = [ctypes.POINTER(ctypes.c_void_p),
                                              ctypes.c_void_p]
            cuda.cuModuleGetFunction.argtypes = [
                ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p,
                ctypes.c_char_p]
            cuda.cuFuncGetAttribute.argtypes = [ctypes.POINTER(ctypes.c_int),
                                                ctypes.c_int, ctypes.c_void_p]
            cuda.cuFuncSetAttribute.argtypes = [ctypes.c_void_p, ctypes.c_int,
                                                ctypes.c_int]
            cuda.cuFuncSetCacheConfig.argtypes = [ctypes.c_void_p,
                                                  ctypes.c_int]
            cuda.cuOccupancyMaxActiveBlocksPerMultiprocessor.argtypes = [
                ctypes.POINTER(ctypes.c_int), ctypes.c_void_p, ctypes.c_int,
                ctypes.c_size_t]
            if hasattr(cuda, "cuTensorMapEncodeTiled"):
                u64p = ctypes.POINTER(ctypes.c_uint64)
                u32p = ctypes.POINTER(ctypes.c_uint32)
                cuda.cuTensorMapEncodeTiled.argtypes = [
                    ctypes.c_void_p, ctypes.c_int, ctypes.c_uint,
                    ctypes.c_void_p, u64p, u64p, u32p, u32p, ctypes.c_int,
                    ctypes.c_int, ctypes.c_int, ctypes.c_int]
            cuda.cuLaunchKernel.argtypes = [
                ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
                ctypes.c_uint, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
                ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p),
                ctypes.c_void_p]
            DriverKernel._cuda = cuda
        self.cuda = DriverKernel._cuda
        torch.zeros(1, device="cuda")  # PyTorch's primary context is current
        with open(path, "rb") as f:
            self.image = ctypes.create_string_buffer(f.read())
        self.module = ctypes.c_void_p()
        self._check(self.cuda.cuModuleLoadData(
            ctypes.byref(self.module), ctypes.cast(self.image, ctypes.c_void_p)),
            "cuModuleLoadData")
        self.function = ctypes.c_void_p()
        self._check(self.cuda.cuModuleGetFunction(
            ctypes.byref(self.function), self.module, entry.encode()),
            "cuModuleGetFunction")
        self.threads = 32 * num_warps
        # Global memory per program (the manifest's global_scratch_bytes:
        # tensor maps), passed after the kernel's own arguments.
        self.global_scratch = global_scratch
        # Tensor maps built from the arguments and passed by value after
        # them (the manifest's tensor_maps: descriptor arguments).
        self.tensor_maps = list(tensor_maps)
        # Null pointers after all arguments: a binary of Triton's PTX
        # (bench/experiments/triton_ptx.py) takes Triton's scratch pointers.
        self.extra_null_args = extra_null_args
        # Block-level memory the kernel takes at launch (the bundle
        # manifest's shared_memory_bytes minus its static part); beyond
        # 48 KiB the function must opt in
        # (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8).
        self.dynamic_shared = dynamic_shared
        if dynamic_shared > 48 * 1024:
            self._check(self.cuda.cuFuncSetAttribute(self.function, 8,
                                                     dynamic_shared),
                        "cuFuncSetAttribute")
            # As our NVIDIA runtime (and Triton's launcher) does: prefer
            # shared memory in the L1/shared split
            # (CU_FUNC_CACHE_PREFER_SHARED = 1). BENCH_CACHE_CONFIG=none
            # leaves the driver's choice, for comparison.
            if os.environ.get("BENCH_CACHE_CONFIG") != "none":
                self._check(self.cuda.cuFuncSetCacheConfig(self.function, 1),
                            "cuFuncSetCacheConfig")

    # cuTensorMapEncodeTiled's data type and element bytes of a manifest's
    # element type (8-bit floats move as bytes).
    _MAP_TYPES = {"i8": (0, 1), "fp8e5": (0, 1), "fp8e4nv": (0, 1),
                  "i16": (1, 2), "i32": (3, 4), "i64": (5, 8),
                  "fp16": (6, 2), "fp32": (7, 4), "fp64": (8, 8),
                  "bf16": (9, 2)}
    _MAP_SWIZZLES = {0: 0, 32: 1, 64: 2, 128: 3}

    def _encode_tensor_map(self, spec, args):
        """The CUtensorMap of one manifest tensor_maps entry, from the
        launch's ctypes arguments, as our NVIDIA runtime builds it."""
        if not hasattr(self.cuda, "cuTensorMapEncodeTiled"):
            raise RuntimeError("the driver has no cuTensorMapEncodeTiled "
                               "(CUDA 12 or later builds tensor maps)")
        if (spec["element"] not in self._MAP_TYPES
                or spec["swizzle"] not in self._MAP_SWIZZLES):
            raise RuntimeError(f"no tensor map of {spec['element']} with a "
                               f"swizzle of {spec['swizzle']} bytes")
        dtype, size = self._MAP_TYPES[spec["element"]]
        rank = len(spec["shape"])
        if any(args[i].value <= 0 for i in spec["shape"]):
            raise RuntimeError("a tensor descriptor's sizes must be positive")
        dims = (ctypes.c_uint64 * rank)(
            *[args[i].value for i in reversed(spec["shape"])])
        strides = (ctypes.c_uint64 * max(rank - 1, 1))(
            *[args[i].value * size for i in reversed(spec["strides"])])
        box = (ctypes.c_uint32 * rank)(*reversed(spec["box"]))
        ones = (ctypes.c_uint32 * rank)(*([1] * rank))
        swizzle = self._MAP_SWIZZLES[spec["swizzle"]]
        storage = _TensorMap()
        # Interleave none, L2 promotion 128 bytes, zero fill.
        self._check(self.cuda.cuTensorMapEncodeTiled(
            storage.address, dtype, rank,
            ctypes.c_void_p(args[spec["base"]].value), dims, strides, box,
            ones, 0, swizzle, 2, 0), "cuTensorMapEncodeTiled")
        return storage

    def _check(self, result, what):
        if result != 0:
            raise RuntimeError(f"{what} failed: CUresult {result}")

    def attribute(self, which):
        value = ctypes.c_int()
        self._check(self.cuda.cuFuncGetAttribute(ctypes.byref(value), which,
                                                 self.function),
                    "cuFuncGetAttribute")
        return value.value

    def resident_blocks(self):
        """Blocks of this kernel the driver lets reside on one SM at its
        launch's threads and dynamic shared memory
        (cuOccupancyMaxActiveBlocksPerMultiprocessor)."""
        blocks = ctypes.c_int()
        self._check(self.cuda.cuOccupancyMaxActiveBlocksPerMultiprocessor(
            ctypes.byref(blocks), self.function, self.threads,
            ctypes.c_size_t(self.dynamic_shared)),
            "cuOccupancyMaxActiveBlocksPerMultiprocessor")
        return blocks.value

    def launcher(self, grid, args):
        """A function that launches with args (ctypes values), built once so
        that each call does only cuLaunchKernel. grid is a count of programs
        or an (x, y) / (x, y, z) tuple."""
        gx, gy, gz = (tuple(grid) + (1, 1))[:3] if isinstance(
            grid, (tuple, list)) else (grid, 1, 1)
        keep = list(args)
        for spec in self.tensor_maps:
            storage = self._encode_tensor_map(spec, args)
            keep.append(storage)
        if self.global_scratch:
            scratch = torch.empty(gx * gy * gz * self.global_scratch,
                                  dtype=torch.int8, device="cuda")
            keep.append(ptr(scratch))
            keep.append(scratch)
        keep += [ctypes.c_uint64(0) for _ in range(self.extra_null_args)]
        values = [a for a in keep if not isinstance(a, torch.Tensor)]
        params = (ctypes.c_void_p * len(values))(
            *[a.address if isinstance(a, _TensorMap) else
              ctypes.cast(ctypes.pointer(a), ctypes.c_void_p) for a in values])
        cuda, function, threads = self.cuda, self.function, self.threads
        shared = self.dynamic_shared

        def launch():
            stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
            result = cuda.cuLaunchKernel(function, gx, gy, gz, threads, 1,
                                         1, shared, stream, params, None)
            if result != 0:
                raise RuntimeError(f"cuLaunchKernel failed: CUresult {result}")
        launch.keep = (keep, params)
        return launch


def ptr(t):
    return ctypes.c_uint64(t.data_ptr())


ROUNDS = 9
# Kernels under SHORT_MS move by more between rounds (clocks, launch gaps):
# they take SHORT_ROUNDS rounds.
SHORT_MS, SHORT_ROUNDS = 0.05, 21


def time_interleaved(ours, theirs):
    """Times two launches in alternating do_bench rounds; returns (our
    median ms, their median ms, note with the range of per-round ratios
    theirs/ours)."""
    ours_ms, theirs_ms = [], []
    rounds = ROUNDS
    r = 0
    while r < rounds:
        pair = [(ours, ours_ms), (theirs, theirs_ms)]
        for fn, times in (pair if r % 2 == 0 else reversed(pair)):
            times.append(triton.testing.do_bench(fn, return_mode="median"))
        if r == 0 and max(ours_ms[0], theirs_ms[0]) < SHORT_MS:
            rounds = SHORT_ROUNDS
        r += 1
    ratios = [t / o for o, t in zip(ours_ms, theirs_ms)]
    return (statistics.median(ours_ms), statistics.median(theirs_ms),
            f"{rounds} rounds, ratio {min(ratios):.3f}-{max(ratios):.3f}")


# Kernels under GRAPH_MS are timed a second way, as CUDA-graph replays
# (METHOD.md: "for many small launches, capture a graph and time its
# replays"): one do_bench launch of a few microseconds follows a 256 MiB
# memset, and its event pair moves by 5-25% between rounds.
GRAPH_MS = 0.05
GRAPH_BYTES = 96 << 20


def _capture(launches, passes):
    for launch in launches:  # compiled and loaded before the capture
        launch()
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(passes):
            for launch in launches:
                launch()
    return graph


def _replay_ms(graph):
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    graph.replay()
    end.record()
    end.synchronize()
    return start.elapsed_time(end)


def time_graphs_interleaved(ours, theirs, replay_ms=5.0):
    """Times two lists of launches (one per input set, the sets together
    larger than the L2, so that each launch reads its inputs from device
    memory as after do_bench's cache clearing) as CUDA graphs: each side's
    launches, repeated in order to about replay_ms, are captured in one
    graph, and the two graphs replay in ROUNDS alternating rounds. Returns
    (our median ms per launch, theirs, note with the range of per-round
    ratios theirs/ours)."""
    graphs, counts = [], []
    for launches in (ours, theirs):
        single = _capture(launches, 1)
        _replay_ms(single)  # the first replay uploads the graph
        once = _replay_ms(single)
        passes = max(1, round(replay_ms / max(once, 1e-3)))
        graphs.append(_capture(launches, passes))
        counts.append(passes * len(launches))
        _replay_ms(graphs[-1])  # the first replay uploads the graph
    times = ([], [])
    for r in range(ROUNDS):
        for side in ((0, 1) if r % 2 == 0 else (1, 0)):
            times[side].append(_replay_ms(graphs[side]) / counts[side])
    ratios = [t / o for o, t in zip(*times)]
    return (statistics.median(times[0]), statistics.median(times[1]),
            f"graphs of {counts[0]} launches, {ROUNDS} rounds, ratio "
            f"{min(ratios):.3f}-{max(ratios):.3f}")


def with_graph_timing(note, ours_ms, triton_ms, gbytes, set_bytes, make_set):
    """`note`, and for a kernel under GRAPH_MS the CUDA-graph timing after
    it: make_set() draws one input set of set_bytes and returns (our
    launch, Triton's launch) over it; the sets together take GRAPH_BYTES,
    about twice the H200's L2."""
    if not (ours_ms and triton_ms and triton_ms < GRAPH_MS):
        return note
    sets = [make_set() for _ in range(max(2, -(-GRAPH_BYTES // set_bytes)))]
    ms, theirs_ms, spread = time_graphs_interleaved([o for o, _ in sets],
                                                    [t for _, t in sets])
    return ((note + "; " if note else "") +
            f"graphs: {gbs(gbytes, ms)} / {gbs(gbytes, theirs_ms)} GB/s, "
            f"ours/Triton {theirs_ms / ms:.3f} ({spread})")


def time_side_by_side(ours, theirs):
    """(our ms, their ms, note): time_interleaved when both launches exist,
    else the one that does alone (None for the other)."""
    if ours and theirs:
        return time_interleaved(ours, theirs)
    if not (ours or theirs):
        return None, None, ""
    alone = triton.testing.do_bench(ours or theirs, return_mode="median")
    return (alone, None, "") if ours else (None, alone, "")


def load_kernel(kernel):
    """The binary of kernels.json entry `kernel` (in bench/bin/kernels),
    loaded through the driver."""
    return DriverKernel(os.path.join(BIN, "kernels", kernel["file"]),
                        kernel["entry"], kernel["num_warps"],
                        kernel.get("dynamic_shared_bytes", 0),
                        extra_null_args=kernel.get("extra_null_args", 0))


def time_against_triton(kernel, grid, args, check, triton_run, timing_args):
    """One checked launch of our binary through the driver with `args`, then
    ours (with `timing_args`: Triton's buffers, so that both write the same
    memory) and Triton's timed by time_interleaved; returns (our ms or None,
    Triton's ms, note, the loaded binary or None). When ours cannot be
    launched, Triton's is timed alone."""
    dk = None
    try:
        dk = load_kernel(kernel)
        launch = dk.launcher(grid, args)
        launch()
        torch.cuda.synchronize()
        err = check()
        note = (None if err is None else
                f"WRONG driver-launch output ({err:.1e})")
        launch = dk.launcher(grid, timing_args)
    except Exception as e:  # reported in the table, the tle-run path stands
        note = f"driver launch failed: {e}"
    if note:
        return time_side_by_side(None, triton_run)[:2] + (note, None)
    return time_side_by_side(launch, triton_run) + (dk,)


def select_variants(kernels, description):
    """The kernels (a bench/bin listing) that --variant SUBSTR picks: those
    whose variant contains it ('' for the plain ones); all without it."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--variant", default=None,
                        help="time only the binaries whose variant contains "
                        "this (e.g. 'host'; '' for the plain ones)")
    wanted = parser.parse_args().variant
    return [k for k in kernels
            if wanted is None or (wanted in k["variant"] if wanted
                                  else not k["variant"])]


def load_example(name):
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(ROOT, "examples", name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def relative_error(out, ref, elementwise=1e-2):
    """The whole tensor's relative error (Frobenius norms), or inf where an
    element is not finite or lies farther from its reference than
    `elementwise` times its own magnitude plus the largest one: a norm over
    millions of elements hides a wrong tile."""
    out, ref = out.double().to(ref.device), ref.double()
    if not torch.isfinite(out).all():
        return float("inf")
    diff = out - ref
    if (diff.abs() > elementwise * (ref.abs() + ref.abs().max())).any():
        return float("inf")
    return (diff.norm() / ref.norm()).item()


def run_tle(kernel, grid, args, outputs, work, repeat=100):
    """Runs one of our binaries with tle-run (inputs from files, outputs
    poisoned by tle-run); returns ({arg index: raw bytes}, median ms, log)."""
    out_dir = os.path.join(work, "out")
    cmd = [
        os.path.join(BIN, "tle-run-nvidia"),
        os.path.join(BIN, "kernels", kernel["file"]),
        "--kernel", kernel["entry"], "--target", "h200",
        "--grid", str(grid), "--num-warps", str(kernel["num_warps"]),
        "--shared-memory", str(kernel.get("dynamic_shared_bytes", 0)),
    ]
    for a in args + ["i64:0"] * kernel.get("extra_null_args", 0):
        cmd += ["--arg", a]
    cmd += ["--out-dir", out_dir, "--warmup", "10", "--repeat", str(repeat),
            "--flush-l2-mib", "256"]
    try:  # a kernel that never finishes fails its row, not the run
        done = subprocess.run(cmd, capture_output=True, text=True,
                              timeout=120)
    except subprocess.TimeoutExpired:
        return None, None, " ".join(cmd) + "\nno result within 120 s"
    log = " ".join(cmd) + "\n" + done.stdout + done.stderr
    if done.returncode != 0:
        return None, None, log
    data = {}
    for k in outputs:
        with open(os.path.join(out_dir, f"arg{k}.bin"), "rb") as f:
            data[k] = f.read()
    median = float(re.search(r"time: median ([0-9.]+) ms", done.stdout)[1])
    return data, median, log


def from_bytes(raw, dtype):
    np_type = {torch.float32: np.float32, torch.float16: np.float16}[dtype]
    return torch.from_numpy(np.frombuffer(raw, dtype=np_type).copy())


def save(t, path):
    t.contiguous().cpu().numpy().tofile(path)
    return path


def gbs(gbytes, ms):
    return f"{gbytes / (ms / 1e3):.0f}" if ms else "-"


def row(name, shape, err_text, gbytes, ours_ms, tle_ms, triton_ms, torch_ms,
        note=""):
    ratio = ("-" if not triton_ms else
             f"{triton_ms / ours_ms:.3f}" if ours_ms else
             f"{triton_ms / tle_ms:.3f} (tle-run)" if tle_ms else "-")
    return [name, shape, err_text, gbs(gbytes, ours_ms), gbs(gbytes, tle_ms),
            gbs(gbytes, triton_ms), gbs(gbytes, torch_ms), ratio, note]


def failed(name, shape, log, log_file, what="FAILED to run"):
    print(log, file=sys.stderr)
    return [name, shape, "-", what, "", "", "", "", ""]


def vector_add(kernels, log_file):
    add = load_example("vector_add").add_kernel
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for n in wanted(VECTOR_ADD_SIZES):
            x = torch.rand(n, device="cuda") * 2 - 1
            y = torch.rand(n, device="cuda") * 2 - 1
            ref = x.double() + y.double()
            gbytes = 3 * 4 * n / 1e9
            save(x, f"{work}/x.bin")
            save(y, f"{work}/y.bin")

            out = torch.full_like(x, float("nan"))
            run = lambda: add[(triton.cdiv(n, 1024),)](x, y, out, n,
                                                        BLOCK_SIZE=1024)
            run()
            torch.cuda.synchronize()
            triton_err = relative_error(out, ref)
            out_t = torch.empty_like(x)
            torch_ms = triton.testing.do_bench(
                lambda: torch.add(x, y, out=out_t), return_mode="median")

            for k in kernels:
                shape = f"n={n}"
                # The variant Triton's JIT would pick: n divisible by 16 or not.
                if k.get("aligned", n % 16 == 0) != (n % 16 == 0):
                    continue
                if n % 4 and not k["odd_sizes"]:
                    rows.append([k["name"], shape, "-", "skipped: no tail "
                                 "handling", "", "", "", "", ""])
                    continue
                grid = triton.cdiv(n, k["elements_per_block"])
                data, tle_ms, log = run_tle(k, grid, [
                    f"buf:f32:N={n}:file={work}/x.bin",
                    f"buf:f32:N={n}:file={work}/y.bin",
                    f"out:f32:N={n}", f"i32:{n}"], [2], work)
                log_file.write(log + "\n")
                if data is None:
                    rows.append(failed(k["name"], shape, log, log_file))
                    continue
                err = relative_error(from_bytes(data[2], torch.float32),
                                     ref.cpu())
                ok = err <= TOLERANCE[torch.float32]
                out_o = torch.full_like(x, float("nan"))

                def check():
                    e = relative_error(out_o, ref)
                    return None if e <= TOLERANCE[torch.float32] else e
                ours_ms, triton_ms, note, dk = time_against_triton(
                    k, grid, [ptr(x), ptr(y), ptr(out_o), ctypes.c_int32(n)],
                    check, run,
                    [ptr(x), ptr(y), ptr(out), ctypes.c_int32(n)])

                def add_set():
                    xi, yi = (torch.rand(n, device="cuda") for _ in "xy")
                    oi = torch.empty_like(xi)
                    return (dk.launcher(grid, [ptr(xi), ptr(yi), ptr(oi),
                                               ctypes.c_int32(n)]),
                            lambda: add[(triton.cdiv(n, 1024),)](
                                xi, yi, oi, n, BLOCK_SIZE=1024))
                if ok:
                    note = with_graph_timing(note, ours_ms, triton_ms, gbytes,
                                             3 * 4 * n, add_set)
                rows.append(row(
                    k["name"], f"add {shape}",
                    f"{err:.1e} {'ok' if ok else 'WRONG'}"
                    f" (triton {triton_err:.1e})", gbytes, ours_ms, tle_ms,
                    triton_ms, torch_ms, note))
    return rows


def built_for(k, bs, n):
    """Whether kernels.json entry k is the binary rows of n columns take:
    its BLOCK_SIZE bs, and compiled for aligned rows exactly when n is a
    multiple of 16 (as Triton's JIT specializes)."""
    return k["block_size"] == bs and k.get("aligned", False) == (n % 16 == 0)


def softmax_grid(n_rows, n_regs, shared, num_warps):
    """The tutorial's number of programs: rows, or fewer to fill the SMs at
    the occupancy the registers and shared memory allow. Two things the
    tutorial leaves out are counted, for both sides: registers are
    allocated 8 per thread at a time, and an SM holds a limited number of
    threads. Without them a kernel of 26 registers got 9 programs of 8
    warps per SM, more than fit at once, and a second wave. The same
    rule sizes Triton's grid (the notes print both): it differs from the
    tutorial's only where the tutorial's would overfill an SM."""
    device = torch.cuda.current_device()
    props = triton.runtime.driver.active.utils.get_device_properties(device)
    n_regs = -(-max(1, n_regs) // 8) * 8
    occupancy = props["max_num_regs"] // (n_regs * 32 * num_warps)
    threads = getattr(torch.cuda.get_device_properties(device),
                      "max_threads_per_multi_processor", 2048)
    occupancy = min(occupancy, threads // (32 * num_warps))
    if shared:
        occupancy = min(occupancy, props["max_shared_mem"] // shared)
    occupancy = max(1, occupancy)
    return min(props["multiprocessor_count"] * occupancy, n_rows)


def softmax(kernels, log_file):
    rows = []
    try:
        props = triton.runtime.driver.active.utils.get_device_properties(
            torch.cuda.current_device())
        num_stages = 4 if props["max_shared_mem"] > 200000 else 2
    except Exception as e:
        print(f"softmax: device properties unknown ({e})", file=sys.stderr)
        num_stages = 4
    with tempfile.TemporaryDirectory() as work:
        for m, n in wanted(SOFTMAX_SHAPES):
            shape = f"softmax {m}x{n}"
            bs = triton.next_power_of_2(n)
            x = torch.rand(m, n, device="cuda") * 2 - 1
            ref = torch.softmax(x.float(), dim=1).double()
            gbytes = 2 * 4 * m * n / 1e9
            save(x, f"{work}/x.bin")

            # Triton, tutorial launch: occupancy-limited persistent grid.
            # Where the tutorial's num_stages needs more shared memory than
            # the card has (rows of 32768), Triton gets the most stages that
            # fit, as our compiler takes by itself.
            y = torch.full_like(x, float("nan"))
            t_grid, t_stages = m, num_stages
            for stages in range(num_stages, 0, -1):
                try:
                    ck = triton_softmax_kernel.warmup(
                        y, x, x.stride(0), y.stride(0), m, n, BLOCK_SIZE=bs,
                        num_stages=stages, num_warps=8, grid=(1,))
                    ck._init_handles()
                    t_grid = softmax_grid(m, ck.n_regs, ck.metadata.shared, 8)
                    t_stages = stages
                    break
                except Exception as e:
                    print(f"softmax {m}x{n}, Triton with num_stages {stages}: "
                          f"{e}", file=sys.stderr)
            run = lambda: triton_softmax_kernel[(t_grid,)](
                y, x, x.stride(0), y.stride(0), m, n, BLOCK_SIZE=bs,
                num_stages=t_stages, num_warps=8)
            try:
                run()
                torch.cuda.synchronize()
                triton_err = relative_error(y, ref)
            except Exception as e:  # ours are still checked and timed
                print(f"softmax {m}x{n}: Triton failed: {e}", file=sys.stderr)
                run, triton_err = None, float("nan")
            torch_ms = triton.testing.do_bench(
                lambda: torch.softmax(x, dim=1), return_mode="median")

            for k in kernels:
                if k.get("kind") != "softmax" or not built_for(k, bs, n):
                    continue
                # Our grid: the same rule with our binary's registers and
                # static shared memory (CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
                # SHARED_SIZE_BYTES = 1); rows when that cannot be read.
                try:
                    loaded = load_kernel(k)
                    grid = softmax_grid(
                        m, loaded.attribute(4),
                        loaded.attribute(1) + k.get("dynamic_shared_bytes", 0),
                        k["num_warps"])
                    regs = f"{loaded.attribute(4)} regs"
                except Exception as e:
                    grid, regs = m, f"grid=rows ({e})"
                data, tle_ms, log = run_tle(k, grid, [
                    f"out:f32:N={m}x{n}", f"buf:f32:N={m}x{n}:file={work}/x.bin",
                    f"i32:{n}", f"i32:{n}", f"i32:{m}", f"i32:{n}"], [0], work,
                    repeat=50)
                log_file.write(log + "\n")
                if data is None:
                    rows.append(failed(k["name"], shape, log, log_file))
                    continue
                err = relative_error(
                    from_bytes(data[0], torch.float32).view(m, n), ref.cpu())
                ok = err <= TOLERANCE[torch.float32]
                y_o = torch.full_like(x, float("nan"))

                def check():
                    e = relative_error(y_o, ref)
                    return None if e <= TOLERANCE[torch.float32] else e
                ours_ms, triton_ms, note, dk = time_against_triton(
                    k, grid,
                    [ptr(y_o), ptr(x), ctypes.c_int32(n), ctypes.c_int32(n),
                     ctypes.c_int32(m), ctypes.c_int32(n)], check, run,
                    [ptr(y), ptr(x), ctypes.c_int32(n), ctypes.c_int32(n),
                     ctypes.c_int32(m), ctypes.c_int32(n)])

                def softmax_set():
                    xi = torch.rand(m, n, device="cuda") * 2 - 1
                    yi = torch.empty_like(xi)
                    return (dk.launcher(grid, [
                        ptr(yi), ptr(xi), ctypes.c_int32(n), ctypes.c_int32(n),
                        ctypes.c_int32(m), ctypes.c_int32(n)]),
                        lambda: triton_softmax_kernel[(t_grid,)](
                            yi, xi, n, n, m, n, BLOCK_SIZE=bs,
                            num_stages=t_stages, num_warps=8))
                if ok:
                    note = with_graph_timing(note, ours_ms, triton_ms, gbytes,
                                             2 * 4 * m * n, softmax_set)
                rows.append(row(
                    k["name"], shape,
                    f"{err:.1e} {'ok' if ok else 'WRONG'}"
                    f" (triton {triton_err:.1e})", gbytes, ours_ms, tle_ms,
                    triton_ms, torch_ms,
                    (note + "; " if note else "") +
                    f"BS {bs}, grid ours {grid} ({regs}), Triton {t_grid}"
                    f" (num_stages {t_stages})"))
    return rows


def layer_norm(kernels, log_file):
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for m, n in wanted(LAYER_NORM_SHAPES):
            shape = f"layernorm {m}x{n}"
            bs = min(65536 // 2, triton.next_power_of_2(n))
            num_warps = min(max(bs // 256, 1), 8)
            x = (torch.rand(m, n, device="cuda") * 2 - 1).half()
            w = torch.rand(n, device="cuda").half()
            b = (torch.rand(n, device="cuda") * 2 - 1).half()
            ref_y = torch.nn.functional.layer_norm(
                x.float(), (n,), w.float(), b.float(), EPS).double()
            xd = x.double()
            ref_mean = xd.mean(dim=1)
            ref_rstd = 1 / torch.sqrt(xd.var(dim=1, unbiased=False) + EPS)
            gbytes = (2 * 2 * m * n + 2 * 2 * n + 2 * 4 * m) / 1e9
            save(x, f"{work}/x.bin")
            save(w, f"{work}/w.bin")
            save(b, f"{work}/b.bin")

            def errors(yy, mean, rstd):
                return (relative_error(yy, ref_y),
                        relative_error(mean, ref_mean),
                        relative_error(rstd, ref_rstd))

            def fine(e):
                return (e[0] <= TOLERANCE[torch.float16] and
                        e[1] <= TOLERANCE[torch.float32] and
                        e[2] <= TOLERANCE[torch.float32])

            y = torch.full_like(x, float("nan"))
            mean = torch.full((m,), float("nan"), device="cuda")
            rstd = torch.full((m,), float("nan"), device="cuda")
            run = lambda: triton_layer_norm_fwd_fused[(m,)](
                x, y, w, b, mean, rstd, x.stride(0), n, EPS, BLOCK_SIZE=bs,
                num_warps=num_warps, num_ctas=1)
            run()
            torch.cuda.synchronize()
            t_err = errors(y, mean, rstd)
            torch_ms = triton.testing.do_bench(
                lambda: torch.nn.functional.layer_norm(x, (n,), w, b, EPS),
                return_mode="median")

            for k in kernels:
                if k.get("kind") != "layer_norm" or not built_for(k, bs, n):
                    continue
                data, tle_ms, log = run_tle(k, m, [
                    f"buf:f16:N={m}x{n}:file={work}/x.bin", f"out:f16:N={m}x{n}",
                    f"buf:f16:N={n}:file={work}/w.bin",
                    f"buf:f16:N={n}:file={work}/b.bin",
                    f"out:f32:N={m}", f"out:f32:N={m}",
                    f"i32:{n}", f"i32:{n}", f"f32:{EPS}"], [1, 4, 5], work,
                    repeat=50)
                log_file.write(log + "\n")
                if data is None:
                    rows.append(failed(k["name"], shape, log, log_file))
                    continue
                e = errors(from_bytes(data[1], torch.float16).view(m, n),
                           from_bytes(data[4], torch.float32),
                           from_bytes(data[5], torch.float32))
                ok = fine(e)
                y_o = torch.full_like(x, float("nan"))
                mean_o = torch.full((m,), float("nan"), device="cuda")
                rstd_o = torch.full((m,), float("nan"), device="cuda")

                def check():
                    eo = errors(y_o, mean_o, rstd_o)
                    return None if fine(eo) else max(eo)
                ours_ms, triton_ms, note, dk = time_against_triton(
                    k, m,
                    [ptr(x), ptr(y_o), ptr(w), ptr(b), ptr(mean_o),
                     ptr(rstd_o), ctypes.c_int32(n), ctypes.c_int32(n),
                     ctypes.c_float(EPS)], check, run,
                    [ptr(x), ptr(y), ptr(w), ptr(b), ptr(mean), ptr(rstd),
                     ctypes.c_int32(n), ctypes.c_int32(n), ctypes.c_float(EPS)])

                def layer_norm_set():
                    xi = (torch.rand(m, n, device="cuda") * 2 - 1).half()
                    yi = torch.empty_like(xi)
                    mi, ri = (torch.empty(m, device="cuda") for _ in "mr")
                    return (dk.launcher(m, [
                        ptr(xi), ptr(yi), ptr(w), ptr(b), ptr(mi), ptr(ri),
                        ctypes.c_int32(n), ctypes.c_int32(n),
                        ctypes.c_float(EPS)]),
                        lambda: triton_layer_norm_fwd_fused[(m,)](
                            xi, yi, w, b, mi, ri, n, n, EPS, BLOCK_SIZE=bs,
                            num_warps=num_warps, num_ctas=1))
                if ok:
                    note = with_graph_timing(note, ours_ms, triton_ms, gbytes,
                                             2 * 2 * m * n, layer_norm_set)
                rows.append(row(
                    k["name"], shape,
                    f"y {e[0]:.1e} mean {e[1]:.1e} rstd {e[2]:.1e} "
                    f"{'ok' if ok else 'WRONG'} (triton y {t_err[0]:.1e} "
                    f"mean {t_err[1]:.1e} rstd {t_err[2]:.1e})",
                    gbytes, ours_ms, tle_ms, triton_ms, torch_ms,
                    (note + "; " if note else "") +
                    f"BS {bs}, {num_warps} warps, grid {m}"))
    return rows


RMS_NORM_SHAPES = [(4096, 1024), (4096, 4096), (4096, 8192), (4097, 1031)]
# --shapes: the shapes to run ("4096x1024", "1048576"), or None for all.
SHAPES_WANTED = None


def wanted(shapes):
    def name(shape):
        return "x".join(map(str, shape)) if isinstance(shape, tuple) \
            else str(shape)
    return [s for s in shapes
            if SHAPES_WANTED is None or name(s) in SHAPES_WANTED]


def rms_norm(kernels, log_file):
    """examples/rms_norm.py (fp16 rows, fp32 inverse RMS), ours against the
    same file run by Triton; checked and timed through the driver only."""
    kernel = load_example("rms_norm").rms_norm_kernel
    rows = []
    for m, n in wanted(RMS_NORM_SHAPES):
        shape = f"rms norm {m}x{n}"
        bs = triton.next_power_of_2(n)
        num_warps = min(max(bs // 256, 1), 8)
        x = (torch.rand(m, n, device="cuda") * 2 - 1).half()
        w = torch.rand(n, device="cuda").half()
        xd = x.double()
        ref_rrms = 1 / torch.sqrt((xd * xd).mean(dim=1) + EPS)
        ref_y = xd * ref_rrms[:, None] * w.double()
        gbytes = (2 * 2 * m * n + 2 * n + 4 * m) / 1e9

        def errors(y, rrms):
            return relative_error(y, ref_y), relative_error(rrms, ref_rrms)

        def fine(e):
            return (e[0] <= TOLERANCE[torch.float16] and
                    e[1] <= TOLERANCE[torch.float32])

        y = torch.full_like(x, float("nan"))
        rrms = torch.full((m,), float("nan"), device="cuda")
        run = lambda: kernel[(m,)](y, rrms, x, w, n, n, EPS,  # noqa: E731
                                   BLOCK_SIZE=bs, num_warps=num_warps)
        run()
        torch.cuda.synchronize()
        t_err = errors(y, rrms)
        for k in kernels:
            if not built_for(k, bs, n):
                continue
            y_o = torch.full_like(x, float("nan"))
            rrms_o = torch.full((m,), float("nan"), device="cuda")
            holder = {}

            def check():
                holder["e"] = errors(y_o, rrms_o)
                return None if fine(holder["e"]) else max(holder["e"])
            ours_ms, triton_ms, note, dk = time_against_triton(
                k, m,
                [ptr(y_o), ptr(rrms_o), ptr(x), ptr(w), ctypes.c_int32(n),
                 ctypes.c_int32(n), ctypes.c_float(EPS)], check, run,
                [ptr(y), ptr(rrms), ptr(x), ptr(w), ctypes.c_int32(n),
                 ctypes.c_int32(n), ctypes.c_float(EPS)])
            e = holder.get("e", (float("nan"), float("nan")))

            def rms_norm_set():
                xi = (torch.rand(m, n, device="cuda") * 2 - 1).half()
                yi = torch.empty_like(xi)
                ri = torch.empty(m, device="cuda")
                return (dk.launcher(m, [
                    ptr(yi), ptr(ri), ptr(xi), ptr(w), ctypes.c_int32(n),
                    ctypes.c_int32(n), ctypes.c_float(EPS)]),
                    lambda: kernel[(m,)](yi, ri, xi, w, n, n, EPS,
                                         BLOCK_SIZE=bs, num_warps=num_warps))
            if fine(e):
                note = with_graph_timing(note, ours_ms, triton_ms, gbytes,
                                         2 * 2 * m * n, rms_norm_set)
            rows.append(row(
                k["name"], shape,
                f"y {e[0]:.1e} rrms {e[1]:.1e} "
                f"{'ok' if fine(e) else 'WRONG'} (triton y {t_err[0]:.1e} "
                f"rrms {t_err[1]:.1e})", gbytes, ours_ms, None, triton_ms,
                None, (note + "; " if note else "") +
                f"BS {bs}, {num_warps} warps, grid {m}"))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log", default=os.environ.get("OUT", ".") +
                        "/compare.log")
    parser.add_argument("--only",
                        default="softmax,layer_norm,vector_add,rms_norm",
                        help="families, in the order they run")
    parser.add_argument("--shapes",
                        help="comma-separated shapes to run, as MxN for "
                        "rows and n for vector add (default: all)")
    args = parser.parse_args()
    global SHAPES_WANTED
    if args.shapes:
        SHAPES_WANTED = set(args.shapes.split(","))
        known = {f"{m}x{n}" for m, n in SOFTMAX_SHAPES + LAYER_NORM_SHAPES +
                 RMS_NORM_SHAPES} | {str(n) for n in VECTOR_ADD_SIZES}
        if SHAPES_WANTED - known:
            parser.error(f"--shapes: unknown {sorted(SHAPES_WANTED - known)}"
                         f" (known: {', '.join(sorted(known))})")
    with open(os.path.join(BIN, "kernels.json")) as f:
        kernels = json.load(f)
    print(f"GPU: {torch.cuda.get_device_name()}; torch {torch.__version__}, "
          f"triton {triton.__version__}")
    for k in kernels:
        print(f"  {k['name']} {k['file']}: {k['origin']}")
    rows = []
    with open(args.log, "w") as log_file:
        families = {"vector_add": (vector_add, None),
                    "softmax": (softmax, "softmax"),
                    "layer_norm": (layer_norm, "layer_norm"),
                    "rms_norm": (rms_norm, "rms_norm")}
        for name in args.only.split(","):
            fn, kind = families[name]
            mine = [k for k in kernels if k.get("kind") == kind]
            try:
                got = fn(mine, log_file)
            except Exception as e:  # one family failing keeps the others
                import traceback
                traceback.print_exc()
                got = [[name, "-", "-", f"FAILED: {e}", "", "", "", "", ""]]
            rows += got
            print(f"{name} done:", flush=True)
            for r in got:
                print("  " + " | ".join(map(str, r)), flush=True)
    header = ["kernel", "shape", "rel. error vs torch", "ours GB/s (do_bench)",
              "ours GB/s (tle-run)", "Triton GB/s", "PyTorch GB/s",
              "ours/Triton", "notes"]
    widths = [max(len(str(r[i])) for r in rows + [header])
              for i in range(len(header))]
    print("\nGB/s = bytes read + written once / median time. vector add 3*4*n;"
          " softmax 2*4*M*N; layer norm 2*2*M*N + 2*2*N + 2*4*M; rms norm\n"
          "2*2*M*N + 2*N + 4*M.\n"
          "ours (do_bench): our binary launched through the driver on "
          "PyTorch's stream inside triton.testing.do_bench, as Triton's is;\n"
          "ours (tle-run): tle-run's median (one launch between events on an "
          "idle GPU: counts the launch latency). ours/Triton uses do_bench.")
    for r in [header] + rows:
        print("| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) +
              " |")
    wrong = [r for r in rows
             if "WRONG" in r[2] or "FAILED" in r[3] or "WRONG" in r[-1]]
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
