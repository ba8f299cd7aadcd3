"""Rewrites a PTX file's branch-guarded global loads and stores into
predicated ones, to measure what the branches cost without changing the
compiler:

    @%p bra $L;            ->    @!%p ld.global ... ;
    ld.global ... ;              <arithmetic>
    <arithmetic>                 @!%p st.global ... ;
    st.global ... ;
  $L:

A guarded block qualifies when it holds only global loads and stores and
arithmetic, no labels or branches (except a final `bra.uni` to the same
label), and its label is branched to only from its guard. Loads and stores
take the negated guard. Arithmetic whose result is read only inside the
block runs unconditionally (as Triton computes stored values before its
predicated stores); other arithmetic takes the guard too, since its
register may carry another value on the path that skips the block.
With --shared-loads, blocks may also read block-level memory (ld.shared),
which then runs unconditionally (a matmul epilogue's staged tile, as
Triton's epilogue reads it before its predicated stores).
Usage: predicate_stores.py IN.ptx OUT.ptx [--stores-only] [--shared-loads];
prints how many blocks it rewrote."""
import re
import sys

GUARD = re.compile(r"^\s*@(%p\d+) bra\s+(\$L__\w+);\s*$")
LABEL = re.compile(r"^(\$L__\w+):\s*$")
BRANCH_UNI = re.compile(r"^\s*bra\.uni\s+(\$L__\w+);\s*$")
SAFE = re.compile(r"^\s*(div|mul|add|sub|fma|cvt|mov|st\.global|ld\.global|"
                  r"ex2|rcp|max|min|neg|selp|setp|shl|shr|and|or|xor|mad|"
                  r"\.loc|//)")
MEMORY = re.compile(r"^(\s*)((ld|st)\.global)")
# With shared_loads, reads of block-level memory (a matmul epilogue's
# staged tile) may sit in a guarded block too: they run unconditionally,
# as Triton's epilogue issues them before its predicated stores.
SHARED_LOAD = re.compile(r"^\s*ld\.shared")
REGISTER = re.compile(r"%\w+")


def predicate(body, pred, text_outside):
    out = []
    for b in body:
        if MEMORY.match(b):
            out.append(MEMORY.sub(rf"\1@!{pred} \2", b))
            continue
        parts = b.split(None, 1)
        dest = REGISTER.search(parts[1]) if len(parts) > 1 else None
        if dest and re.search(re.escape(dest.group(0)) + r"\b", text_outside):
            out.append(re.sub(r"^(\s*)", rf"\1@!{pred} ", b, count=1))
        else:
            out.append(b)
    return out


def rewrite(lines, stores_only, shared_loads=False):
    uses = {}
    for line in lines:
        for label in re.findall(r"(\$L__\w+)\s*;", line):
            uses[label] = uses.get(label, 0) + 1
    out, i, count = [], 0, 0
    while i < len(lines):
        m = GUARD.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        pred, label = m.groups()
        j = i + 1
        body = []
        while j < len(lines) and not LABEL.match(lines[j]):
            body.append(lines[j])
            j += 1
        tail = None
        if body and BRANCH_UNI.match(body[-1]):
            tail = body.pop()
            if BRANCH_UNI.match(tail).group(1) != label:
                tail = "bad"
        ends_at_label = j < len(lines) and LABEL.match(lines[j]).group(1) == label
        fine = (tail != "bad" and body and
                all(SAFE.match(b) or not b.strip() or
                    (shared_loads and SHARED_LOAD.match(b)) for b in body) and
                any("st.global" in b or ("ld.global" in b and not stores_only)
                    for b in body) and
                (not stores_only or not any("ld.global" in b for b in body)) and
                (ends_at_label or tail) and
                uses.get(label, 0) == (2 if tail else 1))
        if not fine:
            out.append(lines[i])
            i += 1
            continue
        outside = "\n".join(lines[:i + 1] + lines[j:])
        out += predicate([b for b in body if b.strip()], pred, outside)
        count += 1
        if tail:
            out.append(tail)
            i = j  # the label that follows belongs to another block
        else:
            i = j + 1  # drop the label: nothing else branches to it
    return out, count


def main():
    with open(sys.argv[1]) as f:
        lines = f.read().split("\n")
    out, count = rewrite(lines, "--stores-only" in sys.argv[3:],
                         "--shared-loads" in sys.argv[3:])
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(out))
    print(f"{sys.argv[1]}: {count} guarded blocks predicated")


if __name__ == "__main__":
    main()
