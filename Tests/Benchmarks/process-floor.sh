#!/bin/sh
# The process floor: the peak resident memory and the CPU time (user + system) of one
# `webimage info` on a 4x4 PNG, against Pillow opening and decoding the same file in a fresh
# python3. Rounds are interleaved; prints each tool's minimum over the rounds, and the ratios
# to Pillow.
#
#   PYTHON=/tmp/peer/bin/python PREFIX=/opt/webimage sh Tests/Benchmarks/process-floor.sh [ROUNDS]
#   BASELINE=/opt/webimage-old ... (also an earlier install, in the same rounds)
#
# PREFIX: a `make install PREFIX=...` (else the release build, whose `webimage` finds no
# plugins: its floor without the PNG plugin); PYTHON: a python3 with Pillow (`pip install
# pillow`; default python3). Default 20 rounds.
set -eu
rounds=${1:-20}
python=${PYTHON:-python3}
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/Tests/Benchmarks/release-paths.sh"
work=$(mktemp -d /tmp/webimage-process-floor.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM

# A 4x4 RGB PNG, written without any image library.
python3 - "$work/tiny.png" <<'PY'
import struct, sys, zlib
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
rows = b"".join(b"\x00" + b"\x80\x40\x20" * 4 for _ in range(4))
header = struct.pack(">IIBBBBB", 4, 4, 8, 2, 0, 0, 0)
with open(sys.argv[1], "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
PY

# One run of a command: "<cpu seconds> <peak RSS KiB>" of the child, output discarded.
measure() {
  python3 - "$@" <<'PY'
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{usage.ru_utime + usage.ru_stime:.4f} {usage.ru_maxrss}")
PY
}

pillow='from PIL import Image; image = Image.open(__import__("sys").argv[1]); image.load()'
: > "$work/results"
round=1
while [ "$round" -le "$rounds" ]; do
  echo "webimage $(measure "$bin/webimage" info "$work/tiny.png")" >> "$work/results"
  if [ -n "${BASELINE:-}" ]; then
    echo "baseline $(measure "$BASELINE/bin/webimage" info "$work/tiny.png")" >> "$work/results"
  fi
  echo "pillow $(measure "$python" -c "$pillow" "$work/tiny.png")" >> "$work/results"
  round=$((round + 1))
done

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); minimum of $rounds rounds"
awk '
  { if (!($1 in cpu) || $2 < cpu[$1]) cpu[$1] = $2; if (!($1 in rss) || $3 < rss[$1]) rss[$1] = $3 }
  END {
    for (tool in cpu) printf "%-9s CPU %.3f s (%.2f x Pillow)  peak RSS %.1f MiB (%.2f x Pillow)\n", tool, cpu[tool], cpu[tool] / cpu["pillow"], rss[tool] / 1024, rss[tool] / rss["pillow"]
  }' "$work/results" | sort
