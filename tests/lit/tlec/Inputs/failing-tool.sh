#!/bin/sh
# Stands in for a vendor tool (ld.lld, spirv-val, ptxas) that fails: it
# writes part of its output (the file after -o, if any), with STRAY=1 also a
# file of its own beside its input (as tools that leave logs or core files
# do), prints an error and exits 3.
out=
prev=
for a in "$@"; do
  [ "$prev" = "-o" ] && out=$a
  prev=$a
  last=$a
done
[ -n "$out" ] && echo partial > "$out"
[ "$STRAY" = 1 ] && echo stray > "$(dirname "$last")/stray.log"
echo "failing-tool: error: simulated failure" >&2
exit 3
