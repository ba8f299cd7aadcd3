"""PTX experiment: the generic-to-async proxy fence between a pipelined
loop's cp.async wait and its wgmma, in other forms (measurement only; the
pointer matmul of examples/matmul.py at 1024^3 is where it costs):
- base: unchanged (every thread's bidirectional fence.proxy.async after
  the block barrier, right before the wgmma);
- bi-before: the same fence before the barrier (each thread fences the
  copies it waited for, then the block synchronizes);
- release-before: the unidirectional generic-to-async release fence
  (PTX ISA 8.6: fence.proxy.async::generic.release.sync_restrict::
  shared::cta.cluster) before the barrier;
- nofence: no fence (a race; timing only).
Usage: proxy_fence_variants.py IN.ptx OUT_PREFIX (OUT_PREFIX.VARIANT.ptx)"""
import re
import sys

LOOP_FENCE = re.compile(
    r"(\tcp\.async\.wait_group \t\d+;\n)(\tbar\.sync \t0;\n)"
    r"(\t// begin inline asm\n\tfence\.proxy\.async\.shared::cta;\n"
    r"\t// end inline asm\n)")
RELEASE = ("\tfence.proxy.async::generic.release.sync_restrict::shared::cta"
           ".cluster;\n")


def variants(ptx):
    if not LOOP_FENCE.search(ptx):
        raise SystemExit("no cp.async wait, barrier and proxy fence in a row")
    newer = re.sub(r"^\.version \d+\.\d+", ".version 8.6", ptx, flags=re.M)
    return {
        "base": ptx,
        "bi-before": LOOP_FENCE.sub(r"\1\3\2", ptx),
        "release-before": LOOP_FENCE.sub(
            lambda m: m.group(1) + RELEASE + m.group(2), newer),
        "nofence": LOOP_FENCE.sub(r"\1\2", ptx),
    }


def main():
    for name, text in variants(open(sys.argv[1]).read()).items():
        with open(f"{sys.argv[2]}.{name}.ptx", "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
