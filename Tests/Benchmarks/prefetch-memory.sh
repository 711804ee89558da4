#!/bin/sh
# Peak resident memory of `webimage prefetch` against a Python peer on the same work: N distinct
# URLs (`photo.jpg?i=K`) of one photograph from a local nginx, each thumbnailed to fit
# 256x256 and stored in a fresh cache folder, 3 at a time. The peer is a thread pool of 3
# with urllib and Pillow (`Image.thumbnail`, saved as PNG). Prints each tool's minimum over
# ROUNDS of the wall time and the peak RSS, and the ratio of the peaks.
#
#   PYTHON=.build-bench/thumbor-venv/bin/python PREFIX=/opt/webimage \
#     sh Tests/Benchmarks/prefetch-memory.sh PHOTO.jpg [N] [ROUNDS]      (default 500 URLs, 3 rounds)
#
# PREFIX: a `make install PREFIX=...` (its plugins are trusted, so coders run in-process);
# PYTHON: a python3 with Pillow (default python3). nginx listens on 127.0.0.1 only.
set -eu
photo=$1
count=${2:-500}
rounds=${3:-3}
python=${PYTHON:-python3}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/webimage-prefetch-memory.XXXXXX)
nginx_pid=""
cleanup() {
  [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

mkdir -p "$work/www"
cp "$photo" "$work/www/photo.jpg"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
. "$root/Tests/Benchmarks/nginx-origin.sh"
start_nginx_origin "$work" "$port" 1 nolog
for i in $(seq "$count"); do echo "http://127.0.0.1:$port/photo.jpg?i=$i"; done >"$work/urls"

cat >"$work/peer.py" <<'PY'
import io, sys, urllib.request
from concurrent.futures import ThreadPoolExecutor
from PIL import Image
urls, out = open(sys.argv[1]).read().split(), sys.argv[2]
def one(item):
    index, url = item
    image = Image.open(io.BytesIO(urllib.request.urlopen(url).read()))
    image.thumbnail((256, 256))
    image.save(f"{out}/{index}.png")
with ThreadPoolExecutor(3) as pool:
    list(pool.map(one, enumerate(urls)))
PY

# measure COMMAND...: the wall seconds and peak RSS (KiB) of the command, in a fresh folder.
measure() {
  rm -rf "$work/out"; mkdir "$work/out"
  python3 - "$@" <<'PY'
import resource, subprocess, sys, time
start = time.monotonic()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(f"{time.monotonic() - start:.3f} {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}")
PY
}

webimage_wall=999999; webimage_rss=999999999; peer_wall=999999; peer_rss=999999999
for _ in $(seq "$rounds"); do
  set -- $(measure "$PREFIX/bin/webimage" prefetch --from "$work/urls" --thumbnail 256x256 --cache-dir "$work/out" --json)
  webimage_wall=$(echo "if ($1 < $webimage_wall) $1 else $webimage_wall" | bc); [ "$2" -lt "$webimage_rss" ] && webimage_rss=$2
  set -- $(measure "$python" "$work/peer.py" "$work/urls" "$work/out")
  peer_wall=$(echo "if ($1 < $peer_wall) $1 else $peer_wall" | bc); [ "$2" -lt "$peer_rss" ] && peer_rss=$2
done
echo "$count thumbnails, min of $rounds rounds, load average $(cut -d' ' -f1-3 /proc/loadavg):"
printf 'webimage prefetch  %6.3f s  peak RSS %4d MiB\n' "$webimage_wall" "$((webimage_rss / 1024))"
printf 'python peer        %6.3f s  peak RSS %4d MiB\n' "$peer_wall" "$((peer_rss / 1024))"
printf 'peak RSS webimage/peer %.2fx\n' "$(echo "$webimage_rss / $peer_rss" | bc -l)"
