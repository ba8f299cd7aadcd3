"""PTX experiment: what building a kernel's tensor maps costs at 1024^3.
Writes variants of tlec's PTX of a kernel with in-kernel tensor maps
(bench/experiments/descriptor_kernels.py), for
bench/experiments/descriptor_vs_pointer.py to time (measurement only):
- base: unchanged;
- cta: the maps' release (tensormap.cp_fenceproxy) and acquire
  (fence.proxy.tensormap::generic.acquire) at CTA scope instead of GPU
  scope: the block that writes a map is the only one that copies through it;
- cta-bars: cta, and the block barriers between the maps' writes and
  between the rings' barrier initializations dropped (the same thread or
  warp does both sides of each; the last barrier of each group stays).
Usage: tensor_map_variants.py IN.ptx OUT_PREFIX (writes OUT_PREFIX.VARIANT.ptx)"""
import re
import sys


def cta(ptx):
    return (ptx.replace("tensormap::generic.release.gpu",
                        "tensormap::generic.release.cta")
            .replace("fence.proxy.tensormap::generic.acquire.gpu",
                     "fence.proxy.tensormap::generic.acquire.cta"))


def drop_inner_bars(ptx):
    """Drops the first block barrier after each of all but the last map
    write, and after each of all but the last ring's barrier inits."""
    lines = ptx.split("\n")
    maps = [i for i, l in enumerate(lines) if "tensormap.cp_fenceproxy" in l]
    inits = [i for i, l in enumerate(lines) if "mbarrier.init" in l]
    # The last init of each ring: an init followed by a bar.sync before the
    # next init.
    groups, drop = [], set()
    for i in inits:
        if groups and not any("bar.sync" in lines[j]
                              for j in range(groups[-1][-1], i)):
            groups[-1].append(i)
        else:
            groups.append([i])
    for ends in [maps[:-1], [g[-1] for g in groups[:-1]]]:
        for start in ends:
            j = next(j for j in range(start, len(lines))
                     if re.match(r"\s*bar\.sync\s+0;", lines[j]))
            drop.add(j)
    return "\n".join(l for i, l in enumerate(lines) if i not in drop)


def main():
    ptx = open(sys.argv[1]).read()
    for name, text in (("base", ptx), ("cta", cta(ptx)),
                       ("cta-bars", drop_inner_bars(cta(ptx)))):
        with open(f"{sys.argv[2]}.{name}.ptx", "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
