#!/usr/bin/env python3
"""Checks a bundle manifest's amd targets against their code objects.

Usage: manifest_vs_notes.py MANIFEST.json [READOBJ]

For every target whose backend is amd, runs `READOBJ --notes` (default
llvm-readobj-22) on the binary next to the manifest, reads the kernel's
entry of the NT_AMDGPU_METADATA note, and checks that the manifest's
`properties`, `argument_layout` and `resources` say what the note says: the
same value for every property, every note key the plugin reports present,
the same argument slots in offset order. Prints one line per target and
exits with 1 on the first difference, naming it.

The note is read from llvm-readobj's YAML rendering with a small parser of
its fixed shape (no PyYAML on CI machines).
"""
import json
import os
import subprocess
import sys

# The note keys the amd plugin reports, as vendor_plugins/amd/
# CodeObjectMetadata.cpp lists them (name without its dot, unit).
KEYS = [
    ("wavefront_size", "lanes"),
    ("sgpr_count", "registers"),
    ("vgpr_count", "registers"),
    ("agpr_count", "registers"),
    ("sgpr_spill_count", "registers"),
    ("vgpr_spill_count", "registers"),
    ("group_segment_fixed_size", "bytes"),
    ("private_segment_fixed_size", "bytes"),
    ("kernarg_segment_size", "bytes"),
    ("kernarg_segment_align", "bytes"),
    ("max_flat_workgroup_size", "work-items"),
    ("uses_dynamic_stack", ""),
]


def fail(message):
    print("error: " + message)
    sys.exit(1)


def scalar(text):
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    return text


def parse_notes(text):
    """Returns (target, [kernel dicts]); a kernel's '.args' is a list of
    dicts. Relies on llvm-readobj's layout: kernels at indent 2, their keys
    at 4, argument entries at 6, argument keys at 8."""
    start = text.find("AMDGPU Metadata: ---")
    if start < 0:
        fail("no AMDGPU metadata in llvm-readobj's output")
    lines = text[start:].splitlines()[1:]
    target = None
    kernels = []
    for line in lines:
        if line.strip() == "...":
            break
        indent = len(line) - len(line.lstrip(" "))
        body = line.strip()
        dash = body.startswith("- ")
        if dash:
            body = body[2:]
            indent += 2
        if ":" not in body:
            continue
        key, _, value = body.partition(":")
        if indent == 0 and key == "amdhsa.target":
            target = scalar(value)
        elif indent == 4:
            if key == ".args" and not dash:
                continue
            if dash:
                kernels.append({".args": []})
            kernels[-1][key] = scalar(value)
        elif indent == 8:
            if dash:
                kernels[-1][".args"].append({})
            kernels[-1][".args"][-1][key] = scalar(value)
    return target, kernels


def check_target(manifest_dir, t, readobj):
    where = "%s (%s)" % (t["target"], t["binary"])
    binary = os.path.join(manifest_dir, t["binary"])
    notes = subprocess.run([readobj, "--notes", binary], check=True,
                           capture_output=True, text=True).stdout
    note_target, kernels = parse_notes(notes)
    kernel = [k for k in kernels if k.get(".name") == t["entry"]]
    if len(kernel) != 1:
        fail("%s: the note has no kernel '%s'" % (where, t["entry"]))
    kernel = kernel[0]

    props = t.get("properties", [])
    names = [p["name"] for p in props]
    if len(set(names)) != len(names):
        fail("%s: a property is listed twice: %s" % (where, names))
    by_name = {p["name"]: p for p in props}
    expected = [("target", note_target, None)]
    expected += [(k, kernel.get("." + k), u) for k, u in KEYS]
    for name, value, unit in expected:
        if value is None:
            if name in by_name:
                fail("%s: property %s is not in the note" % (where, name))
            continue
        p = by_name.get(name)
        if p is None:
            fail("%s: property %s (%s in the note) is missing" %
                 (where, name, value))
        if p["value"] != value:
            fail("%s: property %s is %s, the note says %s" %
                 (where, name, p["value"], value))
        if unit is not None and p.get("unit", "") != unit:
            fail("%s: property %s has unit '%s', not '%s'" %
                 (where, name, p.get("unit", ""), unit))
    extra = set(by_name) - {name for name, _, _ in expected}
    if extra:
        fail("%s: properties not from the note: %s" % (where, sorted(extra)))

    args = sorted(kernel[".args"], key=lambda a: int(a[".offset"]))
    layout = t.get("argument_layout", [])
    if len(layout) != len(args):
        fail("%s: %d argument slots, the note has %d" %
             (where, len(layout), len(args)))
    for i, (slot, arg) in enumerate(zip(layout, args)):
        want = {"kind": arg[".value_kind"], "offset": int(arg[".offset"]),
                "size": int(arg[".size"])}
        if ".name" in arg:
            want["name"] = arg[".name"]
        if slot != want:
            fail("%s: argument slot %d is %s, the note says %s" %
                 (where, i, json.dumps(slot, sort_keys=True),
                  json.dumps(want, sort_keys=True)))

    r = t.get("resources")
    if r is None:
        fail("%s: no resources" % where)
    for key, note_key in (("registers", ".vgpr_count"),
                          ("static_shared_memory_bytes",
                           ".group_segment_fixed_size"),
                          ("stack_frame_bytes",
                           ".private_segment_fixed_size")):
        if str(r[key]) != kernel[note_key]:
            fail("%s: resources.%s is %s, the note's %s is %s" %
                 (where, key, r[key], note_key, kernel[note_key]))
    print("ok: %s %s: %d properties, %d argument slots" %
          (t["entry"], t["target"], len(props), len(layout)))


def main():
    if len(sys.argv) not in (2, 3):
        fail("usage: manifest_vs_notes.py MANIFEST.json [READOBJ]")
    path = sys.argv[1]
    readobj = sys.argv[2] if len(sys.argv) == 3 else "llvm-readobj-22"
    with open(path) as f:
        manifest = json.load(f)
    checked = 0
    for t in manifest["targets"]:
        if t["backend"] == "amd":
            check_target(os.path.dirname(path), t, readobj)
            checked += 1
    if checked == 0:
        fail("%s has no amd target" % path)


if __name__ == "__main__":
    main()
