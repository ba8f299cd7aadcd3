"""Run HERE after bench/prepare_h200.sh: adds to bench/bin/kernels.json
variants of the tlec vector add, softmax, layer norm and RMS norm kernels,
compiled with the same options and then edited as PTX before ptxas, to
measure what a code-generation change would give before building it into
the compiler.
compare.py times each variant against Triton in its own rows.

Variants (--variants, comma-separated):
  pred  branch-guarded global loads and stores predicated
        (predicate_stores.py)
  pred-st  the same for blocks without loads (stores and their arithmetic)
  pred-epi  pred-st, also for blocks that read block-level memory (the
        matmul epilogue's staged tile: its 8 ld.shared run unconditionally
        before 8 predicated stores, Triton's shape; ptxas then loads the C
        pointer and stride once, not under each store's predicate)
  cs    global stores streaming (st.global.cs: evict first)
  ef    global loads and cp.async with an L2 evict_first cache policy
  pf    global loads and cp.async with a 256-byte L2 prefetch
  waitbar  a block barrier after every cp.async.wait_group
  endbar, latecopy, endbar-latecopy  softmax's row loop rescheduled as
        Triton's (row_schedule.py): a barrier at the end of each row; the
        next row's copies issued after the row's store
  bulk  softmax rows of aligned kernels copied by one cp.async.bulk on an
        mbarrier per slot instead of every thread's cp.async
        (bulk_copies.py)
  llc   the kernel's optimized LLVM IR (tlec --emit llvm) through llc-22
        for sm_90a, the reference for:
  llc-nosink  the same with -disable-machine-sink: values stored under a
        mask stay computed before the store's branch (LLVM's MachineSink
        moves them into each guarded block: 16 MUFU.RCP per softmax row)
  llc-fence  llc, with an empty side-effecting asm before the branches of
        blocks that load from shared memory, so that only those loads stay
        above the branches (matmul's epilogue reads)
  nofence  matmul without the proxy fence before its wgmma (measurement
        only: the kernel is then racy; Triton 3.6 leaves the fence out of
        pipelined loops, Triton 3.7 put it back)
  ringalign  softmax's ring of row slots moved from byte 32 of block-level
        memory (after the 32-byte scratch) to byte 128, so that each 128-byte
        line a warp copies or reads lies in one 128-byte row of shared
        memory, as Triton's ring at byte 0 does (96 more bytes)
  triton  Triton's own PTX of the same kernel (aligned softmax and fp16 /
        bf16 matmul; triton_ptx.py), launched by our harness: tells a gap in
        the code from one in how the bench builds and launches it. Run this
        script with the Triton the device runs (e.g. PYTHONPATH=DIR of its
        unpacked wheel) for the PTX the bench times against.

--flags NAME=ARGS adds a variant NAME compiled unedited by the same tlec
with ARGS added to its command line (e.g. no-licm=--disable-opt=loop-
invariant-code-motion).

--other-core NAME=DIR adds a variant NAME compiled unedited by the same tlec
with the core libraries found first in DIR (LD_LIBRARY_PATH overrides the
build's RUNPATH): a copy of build/lib/libTLEConversion.so from before a
change measures that change in the same run.

Usage: python3 bench/experiments/prepare_ptx_variants.py [--build DIR]
       [--variants pred,cs,ef,pf] [--other-core NAME=DIR] [--aligned-only]
       [--families add,softmax,layer_norm,rms_norm]"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from typing import NamedTuple, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BIN = os.path.join(ROOT, "bench", "bin")
PTXAS = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import bulk_copies  # noqa: E402
import predicate_stores  # noqa: E402
import row_schedule  # noqa: E402
from dynamic_shared import dynamic_shared_bytes  # noqa: E402

SIGNATURES = {
    ("add", True): "*fp32:16,*fp32:16,*fp32:16,i32:16",
    ("add", False): "*fp32:16,*fp32:16,*fp32:16,i32",
    ("softmax", True): "*fp32:16, *fp32:16, i32:16, i32:16, i32, i32:16",
    ("softmax", False): "*fp32:16, *fp32:16, i32, i32, i32, i32",
    ("layer_norm", True): "*fp16:16, *fp16:16, *fp16:16, *fp16:16, "
                          "*fp32:16, *fp32:16, i32:16, i32:16, fp32",
    ("layer_norm", False): "*fp16:16, *fp16:16, *fp16:16, *fp16:16, "
                           "*fp32:16, *fp32:16, i32, i32, fp32",
    ("rms_norm", True): "*fp16:16, *fp32:16, *fp16:16, *fp16:16, i32:16, "
                        "i32:16, fp32",
    ("rms_norm", False): "*fp16:16, *fp32:16, *fp16:16, *fp16:16, i32, i32, "
                         "fp32",
}
POLICY = "%rd_tle_policy"
# Block-level memory one block may take on an H100 / H200 (227 KiB).
MAX_SHARED_BYTES = 232448


def with_policy(ptx):
    """Declares and creates an evict_first policy register at entry."""
    return re.sub(r"(\n\{\n)",
                  rf"\1\t.reg .b64 \t{POLICY};\n\tcreatepolicy.fractional."
                  rf"L2::evict_first.b64 \t{POLICY}, 1.0;\n", ptx, count=1)


def evict_first(ptx):
    ptx = with_policy(ptx)
    # cp.async.cg.shared.global [d], [s], 16{, src-size};
    ptx = re.sub(r"cp\.async\.cg\.shared\.global (\[[^\]]*\]), (\[[^\]]*\]), "
                 r"16(, %r\d+)?;",
                 lambda m: "cp.async.cg.shared.global.L2::cache_hint "
                 f"{m.group(1)}, {m.group(2)}, 16{m.group(3) or ''}, "
                 f"{POLICY};", ptx)
    # ld.global{.v4}.b32 {regs}, [a];
    return re.sub(r"ld\.global((?:\.v\d)?\.b\d+)\s+([^;]*), (\[[^\]]*\]);",
                  rf"ld.global.L2::cache_hint\1 \2, \3, {POLICY};", ptx)


def prefetch(ptx):
    ptx = ptx.replace("cp.async.cg.shared.global ",
                      "cp.async.cg.shared.global.L2::256B ")
    return re.sub(r"ld\.global((?:\.v\d)?\.b\d+)", r"ld.global.L2::256B\1",
                  ptx)


TRANSFORMS = {
    "pred": lambda ptx: "\n".join(predicate_stores.rewrite(
        ptx.split("\n"), False)[0]),
    "pred-st": lambda ptx: "\n".join(predicate_stores.rewrite(
        ptx.split("\n"), True)[0]),
    "pred-epi": lambda ptx: "\n".join(predicate_stores.rewrite(
        ptx.split("\n"), True, shared_loads=True)[0]),
    "cs": lambda ptx: re.sub(r"st\.global\.", "st.global.cs.", ptx),
    "ef": evict_first,
    "pf": prefetch,
    "endbar": row_schedule.end_barrier,
    "latecopy": row_schedule.late_copy,
    "endbar-latecopy": lambda ptx: row_schedule.late_copy(
        row_schedule.end_barrier(ptx)),
    # Measurement only, the kernel is then racy: wgmma reads its operands
    # through the async proxy, and without this fence the PTX memory model
    # does not order the cp.async writes (generic proxy) before those reads.
    # Triton 3.6 leaves it out of pipelined loops; 3.7 put it back.
    "nofence": lambda ptx: re.sub(r"\n\s*fence\.proxy\.async\.shared::cta;",
                                  "", ptx),
    "ringalign": lambda ptx: re.sub(
        r"(\[%r\d+\+)(\d+)\]",
        lambda m: m.group(1) + str(int(m.group(2)) + 96 if
                                   int(m.group(2)) % 4096 == 32 else
                                   int(m.group(2))) + "]", ptx),
    # A block barrier after every wait for copy groups, as before a wait
    # whose threads read back only their own copies dropped it.
    "waitbar": lambda ptx: re.sub(r"(cp\.async\.wait_group\s+\d+;)",
                                  r"\1\n\tbar.sync 0;", ptx),
}

LLC_FLAGS = {"llc": [], "llc-nosink": ["-disable-machine-sink"],
             "llc-fence": []}
FENCE = '  call void asm sideeffect "", "~{memory}"()\n'


def fence_guarded_branches(ll):
    """Before each conditional branch of a block that loads from shared
    memory (addrspace(3)), an empty side-effecting asm: LLVM's MachineSink
    then keeps the block's loads above the branch instead of moving each
    into the guarded block that uses it (matmul's epilogue)."""
    out, block_loads = [], False
    for line in ll.split("\n"):
        if re.match(r"^\S.*:", line) or line.startswith("define"):
            block_loads = False
        if "load " in line and "ptr addrspace(3)" in line:
            block_loads = True
        if block_loads and re.match(r"\s+br i1 ", line):
            out.append(FENCE.rstrip("\n"))
            block_loads = False
        out.append(line)
    return "\n".join(out)


def llc(ll, flags):
    """PTX of LLVM IR for the H200, as the NVIDIA plugin targets it."""
    return subprocess.run(
        ["llc-22", "-O3", "-mtriple=nvptx64-nvidia-cuda", "-mcpu=sm_90a",
         "-mattr=+ptx80"] + flags + ["-o", "-"], input=ll, check=True,
        capture_output=True, text=True).stdout


def tlec_args(k):
    """(family, tlec arguments) that compiled kernels.json entry k; no
    arguments for the families variants are not made of."""
    aligned = k.get("aligned", False)
    if k.get("kind") == "matmul":
        # As bench/prepare_h200.sh compiles them: 8-bit inputs take B
        # transposed (K-major) and write C in fp16.
        t = f"*{k['dtype']}:16, " * 3
        unit = ["-D", "stride_ak=1", "-D", "stride_bn=1"]
        if k["dtype"] == "fp8e5":
            t = "*fp8e5:16, *fp8e5:16, *fp16:16, "
            unit = ["-D", "stride_ak=1", "-D", "stride_bk=1"]
        spec = ["-D", f"BLOCK_SIZE_M={k['bm']}", "-D", f"BLOCK_SIZE_N={k['bn']}",
                "-D", f"BLOCK_SIZE_K={k['bk']}", "-D", f"GROUP_SIZE_M={k['gm']}",
                "-D", "ACTIVATION=none", "--num-stages", str(k["num_stages"])]
        if aligned:
            spec += unit + ["-D", "stride_cn=1", "--signature",
                            t + ", ".join(["i32:16"] * 6)]
        else:
            spec += ["--signature", t + ", ".join(["i32"] * 9)]
        return "matmul", ["examples/matmul.py"] + spec
    if k["entry"] == "add_kernel":
        example, family, bs, extra = "vector_add", "add", 1024, []
    elif k.get("kind") == "softmax":
        example, family, bs = "fused_softmax", "softmax", k["block_size"]
        extra = ["-D", "num_stages=4"]
    elif k.get("kind") in ("layer_norm", "rms_norm"):
        example = family = k["kind"]
        bs, extra = k["block_size"], []
    else:  # a family this script makes no variants of
        return k.get("kind"), None
    return family, [f"examples/{example}.py", "-D", f"BLOCK_SIZE={bs}",
                    "--signature", SIGNATURES[(family, aligned)]] + extra


class Variant(NamedTuple):
    """One variant of a kernel: its PTX, assembled here unless `cubin` is
    given; `shared` (bytes) replaces the kernel's dynamic shared memory and
    `fields` are added to its kernels.json entry."""
    name: str
    ptx: str
    shared: Optional[int] = None
    fields: Optional[dict] = None
    cubin: Optional[bytes] = None


def triton_job(k, family):
    """The "triton" variant of kernels.json entry k: Triton's PTX of the
    same kernel and specialization and Triton's own binary of it (its
    bundled ptxas, which may take PTX versions ours does not), named
    triton-VERSION, or None where there is none."""
    if not k.get("aligned", False):
        return None  # triton_ptx.py specializes as at aligned shapes
    import triton  # needs Triton, only for this variant
    import triton_ptx
    if family == "softmax":
        # The tutorial's 4 stages, or the most that fit (as compare.py
        # launches Triton).
        for stages in (4, 3, 2, 1):
            compiled = triton_ptx.softmax(k["block_size"], k["num_warps"],
                                          stages)
            if compiled.metadata.shared <= MAX_SHARED_BYTES:
                break
    elif family == "matmul" and k["dtype"] in ("fp16", "bf16"):
        compiled = triton_ptx.matmul(k["dtype"], k["bk"], k["num_warps"],
                                     k["num_stages"], k["bm"], k["bn"])
    else:
        return None
    return Variant(f"triton-{triton.__version__}", compiled.asm["ptx"],
                   compiled.metadata.shared,
                   {"extra_null_args": triton_ptx.extra_params(compiled)},
                   compiled.asm["cubin"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--variants", default="pred")
    parser.add_argument("--other-core", action="append", default=[])
    parser.add_argument("--flags", action="append", default=[])
    parser.add_argument("--aligned-only", action="store_true")
    parser.add_argument("--families", default="add,softmax,layer_norm",
                        help="of add, softmax, layer_norm, rms_norm, matmul")
    args = parser.parse_args()
    path = os.path.join(BIN, "kernels.json")
    with open(path) as f:
        kernels = json.load(f)
    added = []
    for k in kernels:
        if k["name"] != "tlec-cubin" or k.get("variant"):
            continue
        aligned = k.get("aligned", False)
        if args.aligned_only and not aligned:
            continue
        family, spec = tlec_args(k)
        if family not in args.families.split(","):
            continue

        def run_tlec(output, env=None, more=()):
            source, rest = spec[0], spec[1:]
            return subprocess.run(
                [os.path.join(args.build, "bin", "tlec"),
                 os.path.join(ROOT, source), "--target", "h200", "--kernel",
                 k["entry"], "--num-warps", str(k["num_warps"]),
                 "--no-cache"] + output + rest + list(more), check=True,
                capture_output=True, text=True, env=env).stdout

        def compile_asm(env=None, emit="asm", more=()):
            return run_tlec(["--emit", emit], env, more)

        def dynamic_shared(env=None, more=()):
            """The launch's dynamic shared memory of the variant compiled
            with `more` (or another core), from its bundle's manifest: a
            variant may take more than the kernel it is made from (a
            staged ring)."""
            with tempfile.TemporaryDirectory() as out:
                run_tlec(["-o", out], env, more)
                return dynamic_shared_bytes(
                    os.path.join(out, k["entry"], "manifest.json"))

        asm = compile_asm()
        jobs = []
        for name in filter(None, args.variants.split(",")):
            if name == "triton":
                job = triton_job(k, family)
                if job:
                    jobs.append(job)
                continue
            if name in LLC_FLAGS:
                ll = compile_asm(emit="llvm")
                if name == "llc-fence":
                    ll = fence_guarded_branches(ll)
                jobs.append(Variant(name, llc(ll, LLC_FLAGS[name])))
            elif name == "bulk":
                rewritten = asm
                if family == "softmax" and aligned:
                    rewritten = bulk_copies.rewrite(asm, k["block_size"] * 4)
                jobs.append(Variant(name, rewritten))
            elif name == "ringalign":
                # Ring offsets are recognized by softmax's layout: slots
                # 32 bytes past a multiple of 4096.
                if family == "softmax":
                    jobs.append(Variant(name, TRANSFORMS[name](asm),
                                        k.get("dynamic_shared_bytes", 0) + 96))
            else:
                jobs.append(Variant(name, TRANSFORMS[name](asm)))
        for flags in args.flags:
            name, more = flags.split("=", 1)
            jobs.append(Variant(name, compile_asm(more=more.split()),
                                dynamic_shared(more=more.split())))
        for other in args.other_core:
            name, lib = other.split("=", 1)
            env = dict(os.environ, LD_LIBRARY_PATH=lib + os.pathsep +
                       os.environ.get("LD_LIBRARY_PATH", ""))
            jobs.append(Variant(name, compile_asm(env), dynamic_shared(env)))
        base = k["file"].rsplit(".cubin", 1)[0]
        for v in jobs:
            ptx = os.path.join(BIN, "kernels", f"{base}.{v.name}.ptx")
            cubin = ptx[:-len(".ptx")] + ".cubin"
            if v.ptx == asm:
                print(f"{base}: {v.name} changes nothing, skipped")
                continue
            with open(ptx, "w") as f:
                f.write(v.ptx)
            if v.cubin:
                with open(cubin, "wb") as f:
                    f.write(v.cubin)
            else:
                subprocess.run([PTXAS, "-arch=sm_90a", ptx, "-o", cubin],
                               check=True)
            added.append(dict(k, name=f"tlec-{v.name}",
                              file=os.path.basename(cubin),
                              origin=f"{k['origin']}, variant {v.name}"))
            # Other code: the compiler's count of resident blocks and its
            # H100 binary are not this variant's.
            added[-1].pop("blocks_per_sm", None)
            added[-1].pop("h100", None)
            if v.shared is not None:
                added[-1]["dynamic_shared_bytes"] = v.shared
            added[-1].update(v.fields or {})
            if family == "matmul":  # matmul.py tells rows by "variant"
                added[-1]["variant"] = v.name
    with open(path, "w") as f:
        json.dump(kernels + added, f, indent=1)
    print(f"{len(added)} variants added to {path}")


if __name__ == "__main__":
    main()
