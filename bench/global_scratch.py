"""Prints the global scratch a kernel takes per program at launch (its
bundle manifest's global_scratch_bytes, 0 when it has none): the launcher
passes a pointer to grid size x that many bytes after the kernel's own
arguments (tensor maps of TMA copies).
Usage: python3 bench/global_scratch.py BUNDLE/KERNEL/manifest.json"""
import json
import sys

target = json.load(open(sys.argv[1]))["targets"][0]
print(target.get("global_scratch_bytes", 0))
