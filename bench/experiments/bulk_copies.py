"""PTX experiment: a pipelined softmax row copied by one bulk copy (TMA,
cp.async.bulk completing on an mbarrier) instead of every thread's 16-byte
cp.async, to measure what #13's "TMA bulk copies with mbarriers" would give
row loops before building it into the compiler.

rewrite(ptx, row_bytes) takes tlec's PTX of examples/fused_softmax.py for
aligned rows (n_cols a multiple of 16: the row's bytes are a multiple of 16,
as cp.async.bulk needs) and returns it with:
- one mbarrier per ring slot (static shared memory), initialized by thread 0
  at entry, then a block barrier;
- each group of cp.async (the prologue's and the loop's refill) replaced by
  thread 0's expect_tx and one cp.async.bulk of min(n_cols, BLOCK) * 4
  bytes into the slot, issued only where thread 0's copies were (the row
  exists: its src-size is not 0); the proxy fence orders the slot's earlier
  ld.shared before the async-proxy write;
- each cp.async.wait_group in the loop replaced by every thread's wait on
  the slot's mbarrier at the slot's phase (a bit per slot, flipped after
  each wait); the wait at the exit dropped (no copy is left in flight: rows
  past the end are not copied).
Columns past n_cols in a slot keep stale bytes: the kernel selects `other`
there after the read, as it does for cp.async's zero fill.
Returns the PTX unchanged when it is not of that shape."""
import re

BAR = "tle_bulk_bar"
COPY = re.compile(r"\s*cp\.async\.cg\.shared\.global \[(%r\d+)(?:\+(\d+))?\], "
                  r"\[(%rd\d+)(?:\+(\d+))?\], 16, (%r\d+);")


def rewrite(ptx, row_bytes):
    lines = ptx.split("\n")
    try:
        first_wait = next(i for i, l in enumerate(lines)
                          if "cp.async.wait_group" in l)
    except StopIteration:
        return ptx
    slots = sum("cp.async.commit_group" in l for l in lines[:first_wait])
    shift = row_bytes.bit_length() - 1
    if slots < 1 or 1 << shift != row_bytes:
        return ptx
    n_cols = re.search(r"ld\.param\.b32\s+%r\d+, \[(\w+_param_5)\]", ptx)
    if not n_cols:
        return ptx
    first = next(filter(None, map(COPY.match, lines)), None)
    if not first:
        return ptx
    ring = int(first.group(2) or 0)  # thread 0's slot 0, past the scratch
    out, group, label = [], [], 0
    declared = initialized = False  # once per kernel, at its first chance
    for i, line in enumerate(lines):
        if line.startswith(".extern .shared"):
            out += [line, f".shared .align 8 .b64 {BAR}[{slots}];"]
            continue
        if "mov.u32" in line and "%tid.x" in line and not initialized:
            initialized = True
            tid = line.split()[1].rstrip(",")
            out.append(line)
            out.append("\t{ .reg .pred %bq; .reg .b32 %bb;")
            out.append(f"\tsetp.eq.s32 %bq, {tid}, 0;")
            out.append(f"\tmov.b32 %bb, {BAR};")
            for s in range(slots):
                out.append(f"\t@%bq mbarrier.init.shared::cta.b64 "
                           f"[%bb+{8 * s}], 1;")
            out.append("\tfence.mbarrier_init.release.cluster;")
            out.append("\tbar.sync 0; }")
            out.append("\tmov.b32 %r_bulk_phase, 0;")
            out.append(f"\tmov.b32 %r_bulk_tid, {tid};")
            continue
        m = COPY.match(line)
        if m:
            group.append(m)
            continue
        if "cp.async.commit_group" in line:
            if not group:
                return ptx
            dst, off, src, src_off, size = group[0].groups()
            if int(src_off or 0):
                return ptx  # thread 0's first copy is not at the row start
            group = []
            out += [
                "\t{ .reg .pred %bq, %bt; .reg .b32 %bn, %bs, %bd, %bm;",
                f"\tsetp.ne.s32 %bq, {size}, 0;",
                "\tsetp.eq.s32 %bt, %r_bulk_tid, 0;",
                "\tand.pred %bq, %bq, %bt;",
                f"\tld.param.b32 %bn, [{n_cols.group(1)}];",
                f"\tmin.s32 %bn, %bn, {row_bytes // 4};",
                "\tshl.b32 %bn, %bn, 2;",
                f"\tadd.s32 %bd, {dst}, {off or 0};",
                "\tmov.b32 %bm, __tle_scratch;",
                "\tsub.s32 %bs, %bd, %bm;",
                f"\tsub.s32 %bs, %bs, {ring};",
                f"\tshr.u32 %bs, %bs, {shift};",
                "\tshl.b32 %bs, %bs, 3;",
                f"\tmov.b32 %bm, {BAR};",
                "\tadd.s32 %bm, %bm, %bs;",
                "\t@%bq fence.proxy.async.shared::cta;",
                "\t@%bq mbarrier.arrive.expect_tx.shared::cta.b64 _, [%bm], "
                "%bn;",
                "\t@%bq cp.async.bulk.shared::cluster.global.mbarrier::"
                f"complete_tx::bytes [%bd], [{src}], %bn, [%bm]; }}"]
            continue
        if "cp.async.wait_group" in line:
            following = lines[i + 1:i + 3]
            if any("ret;" in later for later in following):
                continue  # the exit's wait: nothing is in flight
            sm = re.match(rf"\s*shl\.b32\s+%r\d+, (%r\d+), {shift};",
                          following[0] if following else "")
            if sm:
                slot = sm.group(1)
            elif slots == 1:
                slot = None
            else:
                return ptx
            label += 1
            out += [
                "\t{ .reg .pred %wd; .reg .b32 %ws, %wp, %wb, %wf;",
                f"\tmov.b32 %ws, {slot or 0};",
                "\tshr.u32 %wp, %r_bulk_phase, %ws;",
                "\tand.b32 %wp, %wp, 1;",
                "\tshl.b32 %wb, %ws, 3;",
                f"\tmov.b32 %wf, {BAR};",
                "\tadd.s32 %wb, %wb, %wf;",
                f"tle_bulk_wait{label}:",
                "\tmbarrier.try_wait.parity.shared::cta.b64 %wd, [%wb], %wp;",
                f"\t@!%wd bra.uni tle_bulk_wait{label};",
                "\tmov.b32 %wf, 1;",
                "\tshl.b32 %wf, %wf, %ws;",
                "\txor.b32 %r_bulk_phase, %r_bulk_phase, %wf; }"]
            continue
        if line.strip().startswith(".reg .b64") and not declared:
            declared = True
            out += [line, "\t.reg .b32 %r_bulk_phase, %r_bulk_tid;"]
            continue
        out.append(line)
    rewritten = "\n".join(out)
    if group or "cp.async.cg" in rewritten or "cp.async.wait" in rewritten:
        return ptx  # a copy or wait of another form: not this shape
    return rewritten
