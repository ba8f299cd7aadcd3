"""Layout conversions per kernel and target, with and without
tle-remove-layout-conversions: what `tlec --conversion-stats` counts, as one
markdown table. Runs HERE (no GPU): the examples (their `tlec-args:` lines)
and Triton's fused-attention tutorial in three configurations.

Columns: conversions layout assignment inserted; removed by rebuilding their
values in the needed layout; taken into software-pipelining rings (a load's
copies write the slot in one layout, the slot is read in the other); then
the ones distributed, by how: free (same registers in both layouts),
selects among a thread's registers (a small tile every thread holds whole),
lane shuffles within warps, or a round trip through block-level memory with
a barrier. The last column is that round-trip count with
`--disable-opt=remove-layout-conversions`. Counts are of ops in the code,
not of executions (a conversion in a loop counts once).

Usage: python3 bench/conversion_counts.py [--tlec build/bin/tlec]
       [--targets h200,mi300x,cpu-spirv]"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ATTENTION = os.path.join(ROOT, "tests", "lit", "frontend", "Inputs",
                         "fused_attention.py")
ATTENTION_ARGS = [
    "--kernel", "_attn_fwd", "--num-warps", "8", "--num-stages", "3",
    "-D", "warp_specialize=False", "-D", "IS_HOPPER=True",
    "-D", "BLOCK_M=128", "-D", "BLOCK_N=64",
    "--signature", "fp32, *fp32, i32, i32, *fp16:16, *fp16:16, *fp16:16, "
                   "*fp16:16, i32"]
# (label, extra tlec arguments) of the fused-attention rows.
ATTENTION_CONFIGS = [
    ("_attn_fwd HEAD_DIM 64", ["-D", "HEAD_DIM=64", "-D", "FP8_OUTPUT=False",
                               "-D", "STAGE=1"]),
    ("_attn_fwd HEAD_DIM 128 causal", ["-D", "HEAD_DIM=128", "-D",
                                       "FP8_OUTPUT=False", "-D", "STAGE=3"]),
    ("_attn_fwd HEAD_DIM 64 fp8", ["-D", "HEAD_DIM=64", "-D",
                                   "FP8_OUTPUT=True", "-D", "STAGE=1"]),
]
LINE = re.compile(
    r"tlec: (\S+) for (\S+): layout conversions: (\d+) assigned, (\d+) "
    r"removed, (\d+) read from pipeline rings; (\d+) distributed: (\d+) "
    r"free, (\d+) by register selects, (\d+) by lane shuffles, (\d+) "
    r"through block-level memory")


# "tlec: error: [FILE: ]target NAME: why" (FILE when a run has several
# kernels).
TARGET_ERROR = re.compile(r"tlec: error: (?:\S+: )?target (\S+): (.*)")


def counts(tlec, args, targets, extra):
    """({(kernel, target): (assigned, removed, rings, distributed, free,
    selects, shuffles, memory)}, [(target, error)]) from one tlec run. A target the
    kernel cannot be compiled for (TLE-Raw code in another chip's language)
    is an error line of its own; any other failure ends the script."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [tlec, *args, "--emit=gpu-ir", "-o", out, "--conversion-stats",
               *[f"--target={t}" for t in targets], *extra]
        run = subprocess.run(cmd, capture_output=True, text=True)
    found = {}
    for m in LINE.finditer(run.stderr):
        found[(m.group(1), m.group(2))] = tuple(map(int, m.groups()[2:]))
    failed = TARGET_ERROR.findall(run.stderr)
    if run.returncode != 0 and not failed or run.returncode == 0 and failed:
        sys.exit(f"{' '.join(cmd)} failed:\n{run.stderr}")
    return found, failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tlec", default=os.path.join(ROOT, "build", "bin",
                                                       "tlec"))
    parser.add_argument("--targets", default="h200,mi300x,cpu-spirv")
    args = parser.parse_args()
    targets = args.targets.split(",")

    jobs = [(None, ["--args-from-source", path])
            for path in sorted(glob.glob(os.path.join(ROOT, "examples",
                                                      "*.py")))]
    jobs += [(label, [ATTENTION, *ATTENTION_ARGS, *extra])
             for label, extra in ATTENTION_CONFIGS]
    rows, not_compiled = [], []
    totals = [0] * 9
    for label, job in jobs:
        with_removal, failed = counts(args.tlec, job, targets, [])
        without, _ = counts(args.tlec, job, targets,
                            ["--disable-opt=remove-layout-conversions"])
        name = label or os.path.relpath(job[-1], ROOT)
        not_compiled += [f"{name} for {t}: {e}" for t, e in failed]
        for (kernel, target), c in with_removal.items():
            (assigned, removed, rings, distributed, free, selects, shuffles,
             memory) = c
            if assigned == 0 and distributed == 0:
                continue
            if (kernel, target) not in without:
                sys.exit(f"{kernel} for {target}: no count without removal")
            memory_without = without[(kernel, target)][7]
            rows.append(f"| {label or kernel} | {target} | {assigned} | "
                        f"{removed} | {rings} | {free} / {selects} / "
                        f"{shuffles} / {memory} | {memory_without} |")
            for i, v in enumerate(c + (memory_without,)):
                totals[i] += v
    print("| kernel | target | assigned | removed | into rings | "
          "distributed: free / register selects / lane shuffles / block "
          "memory | block memory "
          "without removal |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    print("\n".join(rows))
    (assigned, removed, rings, _, free, selects, shuffles, memory,
     without) = totals
    print(f"| all ({len(rows)} rows) | | {assigned} | {removed} | {rings} | "
          f"{free} / {selects} / {shuffles} / {memory} | {without} |")
    if assigned:
        print(f"\n{removed} of {assigned} assigned conversions removed "
              f"({100 * removed / assigned:.0f}%); through block-level "
              f"memory {without} -> {memory} with removal.")
    print("Kernels without conversions (layout assignment gave every value "
          "the layout its users need) are left out.")
    if not_compiled:
        print("Not compiled (the kernel refuses the target):\n" +
              "\n".join(f"- {line}" for line in not_compiled))


if __name__ == "__main__":
    main()
