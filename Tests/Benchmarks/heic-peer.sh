#!/bin/sh
# HEIC decode against Pillow with pillow-heif (which bundles its own, newer libheif and
# libde265), in three settings: on one core (both pinned with taskset), on two quiet cores, and
# on two cores while a busy loop holds the second. Rounds are interleaved; prints each side's
# minimum in ms per setting and the ratio webimage / Pillow.
#
#   PYTHON=/tmp/peer/bin/python PREFIX=/opt/webimage sh Tests/Benchmarks/heic-peer.sh FILE.heic [ROUNDS]
#
# PREFIX: a `make install PREFIX=...` (else the release build: `swift build -c release`);
# PYTHON: a python3 with Pillow and pillow-heif (`pip install pillow pillow-heif`; default
# python3). Each side decodes the file 15 times after a warm-up and keeps its minimum; the
# plugin runs in-process (`--isolation none`), Pillow opens, loads and converts to RGBA.
# Default 3 rounds.
set -eu
file=${1:?usage: heic-peer.sh FILE.heic [ROUNDS]}
rounds=${2:-3}
python=${PYTHON:-python3}
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/Tests/Benchmarks/release-paths.sh"
work=$(mktemp -d /tmp/webimage-heic-peer.XXXXXX)
busy=""
cleanup() {
  [ -n "$busy" ] && kill "$busy" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

plugin_flags="--isolation none"
[ -z "${PREFIX:-}" ] && plugin_flags="$plugin_flags --plugin-path $plugins"
cat > "$work/peer.py" <<'PY'
import io, sys, time
from PIL import Image
import pillow_heif
pillow_heif.register_heif_opener()
data = open(sys.argv[1], "rb").read()
best = float("inf")
for run in range(16):
    start = time.perf_counter()
    image = Image.open(io.BytesIO(data))
    image.load()
    image = image.convert("RGBA")
    if run > 0:
        best = min(best, time.perf_counter() - start)
print(f"{best * 1000:.2f}")
PY

# side SETTING PREFIX_COMMAND...: one round of both sides, appended to the results.
side() {
  setting=$1; shift
  # shellcheck disable=SC2086
  webimage_ms=$("$@" "$bin/webimage-bench" decode "$file" --iterations 15 $plugin_flags --json \
    | sed -n 's/.*"min_ms" : \([0-9.]*\).*/\1/p')
  pillow_ms=$("$@" "$python" "$work/peer.py" "$file")
  echo "$setting webimage $webimage_ms" >> "$work/results"
  echo "$setting pillow $pillow_ms" >> "$work/results"
}

: > "$work/results"
round=1
while [ "$round" -le "$rounds" ]; do
  side one-core taskset -c 0
  side two-cores env
  sh -c 'while :; do :; done' &
  busy=$!
  taskset -p -c 1 "$busy" >/dev/null
  side two-cores-second-busy env
  kill "$busy"; wait "$busy" 2>/dev/null || true; busy=""
  round=$((round + 1))
done

echo "$(basename "$file"), load average $(cut -d' ' -f1-3 /proc/loadavg); minimum ms of $rounds rounds:"
awk '
  { key = $1 " " $2; if (!(key in best) || $3 < best[key]) best[key] = $3; settings[$1] = 1 }
  END {
    for (s in settings)
      printf "%-24s webimage %7.2f  Pillow + pillow-heif %7.2f  webimage / Pillow %.2f\n", s, best[s " webimage"], best[s " pillow"], best[s " webimage"] / best[s " pillow"]
  }' "$work/results" | sort
