"""Prints what a kernel's bundle manifest says about its launch: the dynamic
shared memory it takes (shared_memory_bytes: block-level memory is dynamic
shared memory, passed at launch; what the binary declares statically comes
on top), or with --blocks-per-sm the blocks of it the description lets
reside on one SM (the blocks_per_sm property; empty if there is none).
Usage: python3 bench/dynamic_shared.py [--blocks-per-sm] BUNDLE/KERNEL/manifest.json"""
import json
import sys


def first_target(manifest):
    with open(manifest) as f:
        return json.load(f)["targets"][0]


def dynamic_shared_bytes(manifest):
    """Dynamic shared memory of the first target in the manifest file."""
    return first_target(manifest).get("shared_memory_bytes", 0)


def blocks_per_sm(manifest):
    """The first target's blocks_per_sm property, or None."""
    for prop in first_target(manifest).get("properties", []):
        if prop["name"] == "blocks_per_sm":
            return int(prop["value"])
    return None


if __name__ == "__main__":
    if sys.argv[1] == "--blocks-per-sm":
        blocks = blocks_per_sm(sys.argv[2])
        print("" if blocks is None else blocks)
    else:
        print(dynamic_shared_bytes(sys.argv[1]))
