"""Prints the dynamic shared memory a kernel takes at launch: its bundle
manifest's shared_memory_bytes minus what the cubin declares statically
(block-level memory is dynamic shared memory, passed at launch).
Usage: python3 bench/dynamic_shared.py BUNDLE/KERNEL/manifest.json"""
import json
import sys

target = json.load(open(sys.argv[1]))["targets"][0]
print(max(0, target.get("shared_memory_bytes", 0) -
          target.get("resources", {}).get("static_shared_memory_bytes", 0)))
