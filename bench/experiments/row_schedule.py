"""Reschedules tlec's pipelined softmax row loop in its PTX, to measure two
differences from Triton's schedule before building either into the
compiler:

  endbar    a block barrier at the end of every row (before the loop's
            back-edge): the warps of a block start each row together, as
            Triton's barrier after each row's wait makes them.
  latecopy  the next row's copies (its cp.async group) issued at the end
            of the row, after the row's store, where Triton issues them,
            instead of right after the row max's barrier. Only the copy
            instructions move: their addresses stay computed where they
            were, so no register changes meaning.

The loop is found by its back-edge (`@%p bra $L_header;` after the
header's label, the header holding the loop's cp.async.wait_group); the
latch is the block holding the back-edge. PTX of another shape comes back
unchanged: loops that wait for no group but the last (num_stages 2,
`cp.async.wait_group 0`) or end in an unconditional back-edge are not
found.
"""
import re

LABEL = re.compile(r"^(\$L__\w+):\s*$")
WAIT = re.compile(r"^\s*cp\.async\.wait_group\s+[1-9]\d*;")
COPY = re.compile(r"^\s*(@!?%p\d+\s+)?cp\.async\.(cg|ca)\.shared\.global|"
                  r"^\s*cp\.async\.commit_group;")


def _loop(lines):
    """(header index, latch label index, back-edge index) or None."""
    header = None
    for i, line in enumerate(lines):
        if LABEL.match(line):
            header = i
        elif WAIT.match(line) and header is not None:
            name = LABEL.match(lines[header]).group(1)
            back = re.compile(rf"^\s*@%p\d+ bra\s+{re.escape(name)};")
            for j, other in enumerate(lines):
                if back.match(other):
                    latch = max(k for k in range(j) if LABEL.match(lines[k]))
                    return header, latch, j
            return None
    return None


def end_barrier(ptx):
    lines = ptx.split("\n")
    loop = _loop(lines)
    if not loop:
        return ptx
    back = loop[2]
    return "\n".join(lines[:back] + ["\tbar.sync \t0;"] + lines[back:])


def late_copy(ptx):
    lines = ptx.split("\n")
    loop = _loop(lines)
    if not loop:
        return ptx
    header, latch, back = loop
    if latch > header:
        body = range(header + 1, latch)
    else:  # the latch laid out above the header: the body ends jumping to it
        to_latch = re.compile(
            rf"^\s*bra\.uni\s+{re.escape(LABEL.match(lines[latch]).group(1))};")
        end = next((i for i in range(header + 1, len(lines))
                    if to_latch.match(lines[i])), None)
        if end is None:
            return ptx
        body = range(header + 1, end)
    moved = [i for i in body if COPY.match(lines[i])]
    if not moved or not lines[moved[-1]].strip().startswith(
            "cp.async.commit_group"):
        return ptx
    kept = [line for i, line in enumerate(lines) if i not in set(moved)]
    at = kept.index(lines[latch]) + 1  # right after the latch's label
    return "\n".join(kept[:at] + [lines[i] for i in moved] + kept[at:])
