"""Markdown tables for bench/RESULTS-h200.md from the output of one device
run: python3 bench/results_table.py MATMUL_OUTPUT [COMPARE_OUTPUT]
(the files bench/matmul.py and bench/compare.py printed)."""
import re
import sys


GRAPHS = re.compile(r"(?:= |ours/Triton )([0-9.]+) \(graphs of \d+ launches, "
                    r"\d+ rounds, ratio ([0-9.]+-[0-9.]+)\)")


def graphs(text):
    """The CUDA-graph ratio and its rounds (compare.time_graphs_interleaved),
    or "-" for rows timed by do_bench alone."""
    m = GRAPHS.search(text)
    return f"{m.group(1)} ({m.group(2)})" if m else "-"


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def matmul_table(path):
    rows = ["| dtype | shape | tile (variant) | rel. error | ours TFLOP/s "
            "| Triton | PyTorch | ours/Triton | per-round | graphs |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for line in open(path):
        if not line.startswith("| matmul"):
            continue
        c = cells(line)
        shape = c[1]
        m = re.fullmatch(r"(\d+)x(\d+)x(\d+)", shape)
        if m and m.group(1) == m.group(2) == m.group(3):
            shape = m.group(1) + "^3"
        rows.append(f"| {c[0].split()[1]} | {shape} | " +
                    " | ".join(c[2:9]) + f" | {graphs(' '.join(c[9:]))} |")
    return "\n".join(rows)


def rounds(notes):
    """The per-round ratio range compare.py puts in a row's notes."""
    m = re.search(r"ratio ([0-9.]+-[0-9.]+)", notes)
    return m.group(1) if m else "-"


def compare_table(path):
    rows = ["| kernel, shape | rel. error | ours GB/s | Triton GB/s "
            "| PyTorch GB/s | ours/Triton | per-round | graphs |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for line in open(path):
        if not line.startswith("| tlec-cubin"):
            continue
        c = cells(line)
        # kernel, shape, error, ours (do_bench), ours (tle-run), Triton,
        # PyTorch, ours/Triton, notes
        rows.append(f"| {c[1]} | {c[2].split(' (triton')[0]} | {c[3]} | "
                    f"{c[5]} | {c[6]} | {c[7]} | {rounds(c[8])} | "
                    f"{graphs(c[8])} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(matmul_table(sys.argv[1]))
    if len(sys.argv) > 2:
        print()
        print(compare_table(sys.argv[2]))
