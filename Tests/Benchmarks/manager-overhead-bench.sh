#!/bin/sh
# The image manager's own CPU per image (issue #24's goal: at most 40 µs above fetch + decode +
# store written by hand): 4,000 distinct 1x1 PNGs from a local nginx, so that decoding and
# storing cost almost nothing and what is left is the pipeline. Per round, `webimage-bench
# manager pipeline` runs its sides one after the other in one process (decode alone, by hand,
# the manager storing on disk only, ...); the overhead of a round is (manager's CPU - by hand's
# CPU) / images, in µs. Prints every round, then the peak RSS of by hand and of the manager each
# run alone (every request in flight at once: what a request holds until it completes), then the
# min / median / max over the rounds and the load average.
#
#   sh Tests/Benchmarks/manager-overhead-bench.sh [ROUNDS] [IMAGES]     (default 5 rounds, 4,000 images)
#   PREFIX=/opt/webimage sh Tests/Benchmarks/manager-overhead-bench.sh  (an installed webimage)
#
# Needs a release build (`swift build -c release --product webimage-bench` and the plugin
# products) or, with PREFIX, a `make install PREFIX=...`; nginx and python3. nginx listens on
# 127.0.0.1 only, on a free port, with a temporary prefix that is removed at the end. The plugins
# are linked into that prefix, outside the install folder, so the bench runs with --isolation
# none: the coders run in-process, as installed plugins do. The disk caches are written to
# /dev/shm when it is there: on this machine's ext4 (no journal), creating files soon after
# other files were deleted costs up to a CPU second per thousand (docs/performance.md, "The
# image manager"), which would be timed as the side's store.
set -eu
rounds=${1:-5}
images=${2:-4000}
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/Tests/Benchmarks/release-paths.sh"
bench="$bin/webimage-bench"
work=$(mktemp -d /tmp/webimage-overhead-bench.XXXXXX)
caches="$work/runs"
[ -d /dev/shm ] && [ -w /dev/shm ] && caches=$(mktemp -d /dev/shm/webimage-overhead-bench.XXXXXX)
nginx_pid=""
cleanup() {
  [ -n "$nginx_pid" ] && kill -9 "$nginx_pid" 2>/dev/null || true
  rm -rf "$work" "$caches"
}
trap cleanup EXIT INT TERM

mkdir -p "$work/www/png" "$work/plugins"
for manifest in curl memory disk png; do cp "$root/plugin-manifests/$manifest.json" "$work/plugins/"; done
for library in Curl Memory Disk PNG; do ln -s "$plugins/libWebImage$library.so" "$work/plugins/"; done

# IMAGES distinct 1x1 RGB PNGs (the pixel's colour is the file's number).
python3 - "$work/www/png" "$images" <<'PY'
import struct, sys, zlib
folder, count = sys.argv[1], int(sys.argv[2])
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
for i in range(count):
    pixel = bytes([0, i & 255, (i >> 8) & 255, (i >> 16) & 255])
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(pixel)) + chunk(b"IEND", b""))
    open(f"{folder}/{i:05d}.png", "wb").write(png)
PY

. "$root/Tests/Benchmarks/ports.sh"
port=$(free_port)
. "$root/Tests/Benchmarks/nginx-origin.sh"
start_nginx_origin "$work" "$port" 1 nolog
i=0
while [ "$i" -lt "$images" ]; do
  printf 'http://127.0.0.1:%s/png/%05d.png\n' "$port" "$i"
  i=$((i + 1))
done >"$work/urls.txt"
export WEBIMAGE_PLUGIN_PATH="$work/plugins"

python3 - "$bench" "$work" "$nginx_pid" "$rounds" "$images" "$caches" <<'PY'
import json, os, shutil, statistics, subprocess, sys
bench, work, server, rounds, images, caches = (
    sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6])
overheads, ratios = [], []
for round in range(1, rounds + 1):
    output = subprocess.run(
        [bench, "manager", "pipeline", "--urls", f"{work}/urls.txt", "--files", f"{work}/www/png",
         "--threads", "2", "--rounds", "1", "--isolation", "none", "--server-pid", server,
         "--cache-dir", f"{caches}/{round}", "--json"],
        capture_output=True, text=True, check=True).stdout
    if caches.startswith("/dev/shm/"):
        shutil.rmtree(f"{caches}/{round}")  # in memory: deleting it costs the next round nothing
    sides = json.loads(output.strip().splitlines()[-1])
    by_hand, manager = sides["by-hand"], sides["manager-disk"]
    overhead = (manager["cpu"] - by_hand["cpu"]) / images * 1e6
    overheads.append(overhead)
    ratios.append(manager["wall"] / by_hand["wall"])
    load = open("/proc/loadavg").read().split()[0]
    print(f"round {round} (load {load}): by hand {by_hand['wall']:.3f} s (CPU {by_hand['cpu']:.3f}), "
          f"manager, disk only {manager['wall']:.3f} s (CPU {manager['cpu']:.3f}): "
          f"{overhead:.1f} µs of CPU an image above by hand")
# The memory a request in flight holds: each side alone in a process of its own, every
# request started at once (the manager's) or every download (by hand's); peak RSS from wait4.
peaks = {}
for side in ("by-hand", "manager-disk"):
    child = subprocess.Popen(
        [bench, "manager", "pipeline", "--urls", f"{work}/urls.txt", "--files", f"{work}/www/png",
         "--threads", "2", "--rounds", "1", "--isolation", "none", "--only", side,
         "--cache-dir", f"{caches}/peak-{side}", "--json"], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if status != 0:
        sys.exit(f"{side} alone failed")
    peaks[side] = usage.ru_maxrss / 1024
print(f"peak RSS, each side alone: by hand {peaks['by-hand']:.1f} MiB, manager (disk only) "
      f"{peaks['manager-disk']:.1f} MiB: {(peaks['manager-disk'] - peaks['by-hand']) * 1024 / images:.1f} KiB "
      f"a request above by hand")
print(f"== {images} images, {rounds} rounds (min / median / max)")
for label, values, unit in (("manager's CPU an image above by hand (goal <= 40 µs, issue #24)", overheads, " µs"),
                            ("manager / by hand, wall", ratios, "")):
    values = sorted(values)
    print(f"{label}: {values[0]:.2f}{unit} / {statistics.median_low(values):.2f}{unit} / {values[-1]:.2f}{unit}")
PY
