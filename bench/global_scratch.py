"""Prints the global scratch a kernel takes per program at launch (its
bundle manifest's global_scratch_bytes, 0 when it has none): the launcher
passes a pointer to grid size x that many bytes after the kernel's own
arguments (tensor maps of TMA copies). With --tensor-maps, prints the
manifest's tensor_maps instead (JSON, [] when none): maps the launcher
builds from the arguments and passes by value after them.
Usage: python3 bench/global_scratch.py [--tensor-maps] BUNDLE/KERNEL/manifest.json"""
import json
import sys

maps = sys.argv[1] == "--tensor-maps"
target = json.load(open(sys.argv[-1]))["targets"][0]
if maps:
    print(json.dumps(target.get("tensor_maps", [])))
else:
    print(target.get("global_scratch_bytes", 0))
