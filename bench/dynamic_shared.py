"""Prints the dynamic shared memory a kernel takes at launch: its bundle
manifest's shared_memory_bytes minus what the cubin declares statically
(block-level memory is dynamic shared memory, passed at launch).
Usage: python3 bench/dynamic_shared.py BUNDLE/KERNEL/manifest.json"""
import json
import sys


def dynamic_shared_bytes(manifest):
    """Dynamic shared memory of the first target in the manifest file."""
    with open(manifest) as f:
        target = json.load(f)["targets"][0]
    return max(0, target.get("shared_memory_bytes", 0) -
               target.get("resources", {}).get("static_shared_memory_bytes",
                                               0))


if __name__ == "__main__":
    print(dynamic_shared_bytes(sys.argv[1]))
