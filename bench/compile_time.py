"""Compile time per kernel for sm_90, front end to cubin: tlec next to
Triton's cold-cache triton.compile, on the same machine in the same run.

Usage: python3 bench/compile_time.py [BUILD_DIR] [--runs N]
Needs tlec in BUILD_DIR (default build), ptxas (the nvidia plugin finds it
through CUDA_HOME or /usr/local/cuda) and `pip install triton`. No GPU is
used: Triton compiles for an explicit sm_90 target. Each Triton compile gets
an empty TRITON_CACHE_DIR (cold cache); each tlec run writes a fresh output
directory (and bypasses tlec's cache when it has one). Prints the median of
N runs per kernel, wall-clock, and the ratio.
"""

import argparse
import importlib.util
import os
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (example, kernel, tlec arguments, Triton signature, Triton constexprs)
KERNELS = [
    ("vector_add", "add_kernel",
     ["-D", "BLOCK_SIZE=1024", "--signature", "*fp32:16, *fp32:16, *fp32:16, i32"],
     {"x_ptr": "*fp32", "y_ptr": "*fp32", "output_ptr": "*fp32",
      "n_elements": "i32"}, {"BLOCK_SIZE": 1024}, 4),
    ("fused_softmax", "softmax_kernel",
     ["-D", "BLOCK_SIZE=1024", "-D", "num_stages=4", "--signature",
      "*fp32:16, *fp32:16, i32, i32, i32, i32"],
     {"output_ptr": "*fp32", "input_ptr": "*fp32", "input_row_stride": "i32",
      "output_row_stride": "i32", "n_rows": "i32", "n_cols": "i32"},
     # Every constexpr named: Triton 3.9's ASTSource no longer fills in a
     # parameter's default.
     {"BLOCK_SIZE": 1024, "num_stages": 4}, 8),
    ("layer_norm", "layer_norm_fwd",
     ["-D", "BLOCK_SIZE=1024", "--signature",
      "*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, i32, i32, fp32"],
     {"X": "*fp16", "Y": "*fp16", "W": "*fp16", "B": "*fp16", "Mean": "*fp32",
      "Rstd": "*fp32", "stride": "i32", "N": "i32", "eps": "fp32"},
     {"BLOCK_SIZE": 1024}, 4),
    ("matmul", "matmul_kernel",
     ["-D", "BLOCK_SIZE_M=128", "-D", "BLOCK_SIZE_N=128", "-D", "BLOCK_SIZE_K=32",
      "-D", "GROUP_SIZE_M=8", "-D", "ACTIVATION=none", "--signature",
      "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32, i32, i32, i32, i32, i32"],
     {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32",
      "K": "i32", "stride_am": "i32", "stride_ak": "i32", "stride_bk": "i32",
      "stride_bn": "i32", "stride_cm": "i32", "stride_cn": "i32"},
     {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32,
      "GROUP_SIZE_M": 8, "ACTIVATION": ""}, 4),
]


def load(name):
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(ROOT, "examples", name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def time_tlec(tlec, example, kernel, args, num_warps, runs, extra):
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as out:
            cmd = [tlec, os.path.join(ROOT, "examples", example + ".py"),
                   "--kernel", kernel, "--target", "h200", "--num-warps",
                   str(num_warps), "--out-dir", out] + extra + args
            start = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def time_triton(fn, signature, constexprs, num_warps, runs):
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as cache:
            os.environ["TRITON_CACHE_DIR"] = cache
            sig = dict(signature)
            sig.update({k: "constexpr" for k in constexprs})
            src = ASTSource(fn=fn, signature=sig, constexprs=constexprs)
            start = time.perf_counter()
            triton.compile(src, target=GPUTarget("cuda", 90, 32),
                           options={"num_warps": num_warps})
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", nargs="?", default=os.path.join(ROOT, "build"))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    tlec = os.path.join(args.build, "bin", "tlec")
    help_text = subprocess.run([tlec, "--help"], capture_output=True,
                               text=True).stdout
    extra = ["--no-cache"] if "--no-cache" in help_text else []
    rows = []
    for example, kernel, tlec_args, signature, constexprs, warps in KERNELS:
        ours = time_tlec(tlec, example, kernel, tlec_args, warps, args.runs,
                         extra)
        fn = getattr(load(example), kernel)
        from triton.runtime.jit import JITFunction
        while not isinstance(fn, JITFunction):  # autotune wraps the jit one
            fn = fn.fn
        theirs = time_triton(fn, signature, constexprs, warps, args.runs)
        rows.append((kernel, f"{ours * 1e3:.0f}", f"{theirs * 1e3:.0f}",
                     f"{ours / theirs:.2f}"))
    print(f"median of {args.runs} runs, sm_90, front end to cubin, "
          f"wall-clock on this machine ({os.cpu_count()} CPUs)")
    print("| kernel | tlec ms | Triton cold-cache ms | tlec/Triton |")
    print("| --- | --- | --- | --- |")
    for r in rows:
        print("| " + " | ".join(r) + " |")


if __name__ == "__main__":
    main()
