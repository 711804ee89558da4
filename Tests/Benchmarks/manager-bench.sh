#!/bin/sh
# The image manager's benchmarks of docs/performance.md, in one run:
#  1. a memory-cache hit through the manager (median of 100,000 calls);
#  2. 100 identical concurrent requests: requests in nginx's log, decodes performed;
#  3. 1,000 distinct 640x480 JPEGs from a local nginx, thumbnailed to 256 px and stored in the
#     disk cache, against `webimage fetch` of the same URLs and decoding the same files alone
#     on two threads: per round, manager / larger of (fetch, decode alone), for the manager
#     storing on disk only (the issue's workload) and with its default store cache type
#     (memory and disk); against fetch + decode + store written by hand (the overhead); and
#     against the limit of this machine: decode alone's CPU, plus curl's fetching the same
#     URLs to files and nginx's, plus (for the default) fresh memory for the thumbnails, spread
#     over the cores. Then the min, median and max of each ratio.
#
#   sh Tests/Benchmarks/manager-bench.sh [ROUNDS]      (default 3 rounds)
#   PREFIX=/opt/webimage sh Tests/Benchmarks/manager-bench.sh [ROUNDS]   (an installed webimage)
#
# Needs a release build (`swift build -c release --product webimage`, `--product webimage-bench` and the plugin
# products) or, with PREFIX, a `make install PREFIX=...`; nginx, curl, cjpeg and python3. nginx listens on 127.0.0.1 only, on a free port,
# with a temporary prefix that is removed at the end. The plugins are linked into that prefix,
# outside the install folder, so every command that decodes runs with --isolation none: the
# coders run in-process, as installed plugins do.
set -eu
rounds=${1:-3}
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/Tests/Benchmarks/release-paths.sh"
webimage="$bin/webimage"
bench="$bin/webimage-bench"
work=$(mktemp -d /tmp/webimage-manager-bench.XXXXXX)
nginx_pid=""
cleanup() {
  [ -n "$nginx_pid" ] && kill -9 "$nginx_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

mkdir -p "$work/www/jpeg" "$work/plugins" "$work/logs" "$work/tmp"
for manifest in curl memory disk jpeg png; do cp "$root/plugin-manifests/$manifest.json" "$work/plugins/"; done
for library in Curl Memory Disk JPEG PNG; do ln -s "$plugins/libWebImage$library.so" "$work/plugins/"; done

# 1,000 distinct 640x480 JPEGs (quality 85): one gradient pattern, rotated by a different
# offset for each file.
python3 - "$work/www/jpeg" <<'PY'
import subprocess, sys
folder = sys.argv[1]
header = b"P6 640 480 255\n"
base = bytes(v for y in range(480) for x in range(640) for v in (x % 256, (y * 3) % 256, (x ^ y) % 256))
for i in range(1000):
    shift = (i * 3 * 641) % len(base)
    pixels = base[shift:] + base[:shift]
    subprocess.run(["cjpeg", "-quality", "85", "-outfile", f"{folder}/{i:04d}.jpg"], input=header + pixels, check=True)
PY

. "$root/Tests/Benchmarks/ports.sh"
port=$(free_port)
. "$root/Tests/Benchmarks/nginx-origin.sh"
start_nginx_origin "$work" "$port" 1 log
base="http://127.0.0.1:$port/jpeg"
for i in $(seq 0 999); do printf '%s/%04d.jpg\n' "$base" "$i"; done >"$work/urls.txt"
export WEBIMAGE_PLUGIN_PATH="$work/plugins"

echo "== 1. memory-cache hit through the manager"
"$bench" manager memory-hit --cache-dir "$work/cache-hit" --isolation none

echo "== 2. 100 identical concurrent requests"
"$bench" manager coalesce "$base/0000.jpg" --count 100 --cache-dir "$work/cache-coalesce" --isolation none
echo "   nginx log lines for /jpeg/0000.jpg: $(grep -c '^/jpeg/0000.jpg ' "$work/logs/access.log")"

echo "== 3. 1,000 distinct 640x480 JPEGs thumbnailed to 256 px and stored"
# Each round: `webimage fetch` of the 1,000 URLs (its defaults: 6 downloads at once, 6
# connections to the host), curl fetching them to files (6 at once: the limit of the fetch
# and the store), then one round of `bench manager pipeline --json` (decode alone on two
# threads, fetch + decode + store by hand, the manager storing on disk only, the manager with
# its default store cache type, fresh memory for the thumbnails), so each ratio compares sides
# measured moments apart. The folders written stay until the end, because deleting a thousand
# files just before a side creates a thousand more can make that side's file creation slower
# (see docs/performance.md). CPU seconds are user + system of the client process and of nginx.
mkdir -p "$work/runs"
python3 - "$webimage" "$work" "$nginx_pid" "$rounds" "$bench" <<'PY'
import json, os, resource, statistics, subprocess, sys, time
webimage, work, server, rounds, bench = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
urls = f"{work}/urls.txt"
cores = os.cpu_count()

def server_cpu():
    fields = open(f"/proc/{server}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

def timed(command):
    """Wall seconds, the child's CPU seconds and nginx's CPU seconds of one command, run after
    the files written before it have reached the disk."""
    os.sync()
    before_children = resource.getrusage(resource.RUSAGE_CHILDREN)
    server_before, started = server_cpu(), time.monotonic()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall, after = time.monotonic() - started, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before_children.ru_utime - before_children.ru_stime
    return wall, cpu, server_cpu() - server_before

ratios = {name: [] for name in ("disk", "default", "by_hand", "limit_disk", "limit_default", "disk_by_hand")}
for round in range(1, rounds + 1):
    os.makedirs(f"{work}/runs/fetch-{round}")
    fetch = timed([webimage, "fetch", "--from", urls, "-o", f"{work}/runs/fetch-{round}", "--json"])
    os.makedirs(f"{work}/runs/curl-{round}")
    with open(f"{work}/runs/curl-{round}.cfg", "w") as config:
        for url in open(urls).read().split():
            config.write(f'url = "{url}"\noutput = "{work}/runs/curl-{round}/{url.rsplit("/", 1)[1]}"\n')
    curl = timed(["curl", "-s", "--parallel", "--parallel-max", "6", "-K", f"{work}/runs/curl-{round}.cfg"])
    output = subprocess.run(
        [bench, "manager", "pipeline", "--urls", urls, "--files", f"{work}/www/jpeg",
         "--thumbnail", "256x256", "--threads", "2", "--rounds", "1", "--isolation", "none",
         "--server-pid", server, "--cache-dir", f"{work}/runs/pipeline-{round}", "--json"],
        capture_output=True, text=True, check=True).stdout
    sides = json.loads(output.strip().splitlines()[-1])
    decode, by_hand, disk, default, memory = (
        sides[name] for name in ("decode", "by-hand", "manager-disk", "manager", "fresh-memory"))
    larger = max(fetch[0], decode["wall"])
    limit_disk = max(decode["wall"], (decode["cpu"] + curl[1] + curl[2]) / cores)
    limit_default = max(decode["wall"], (decode["cpu"] + curl[1] + curl[2] + memory["cpu"]) / cores)
    values = {
        "disk": disk["wall"] / larger, "default": default["wall"] / larger, "by_hand": by_hand["wall"] / larger,
        "limit_disk": limit_disk / larger, "limit_default": limit_default / larger,
        "disk_by_hand": disk["wall"] / by_hand["wall"]}
    for name, value in values.items():
        ratios[name].append(value)
    def side(name, values):
        server_part = f" + {values['server_cpu']:.3f}" if "server_cpu" in values else ""
        return f"{name} {values['wall']:.3f} s (CPU {values['cpu']:.3f}{server_part})"
    load = open("/proc/loadavg").read().split()[0]
    print(f"round {round} (load {load}): webimage fetch {fetch[0]:.3f} s (CPU {fetch[1]:.3f} + {fetch[2]:.3f}), "
          f"curl to files {curl[0]:.3f} s (CPU {curl[1]:.3f} + {curl[2]:.3f}), "
          + ", ".join([side("decode alone", decode), side("by hand", by_hand), side("manager, disk only", disk),
                       side("manager, memory and disk", default), side("fresh memory for the thumbnails", memory)]))
    print(f"round {round}: manager / larger of (fetch, decode alone): disk only {values['disk']:.2f}, "
          f"memory and disk {values['default']:.2f}; by hand {values['by_hand']:.2f}; "
          f"limit of this machine: disk only {values['limit_disk']:.2f}, memory and disk {values['limit_default']:.2f}; "
          f"manager (disk only) / by hand {values['disk_by_hand']:.2f} (goal <= 1.05, issue #24)")
print("== summary over %d rounds (min / median / max)" % rounds)
for name, label in (("disk", "manager, disk only"), ("default", "manager, memory and disk"),
                    ("by_hand", "fetch + decode + store by hand"), ("limit_disk", "limit of this machine, disk only"),
                    ("limit_default", "limit of this machine, memory and disk"),
                    ("disk_by_hand", "manager (disk only) / by hand (goal <= 1.05, issue #24)")):
    values = sorted(ratios[name])
    print(f"{label}: {values[0]:.2f} / {statistics.median_low(values):.2f} / {values[-1]:.2f}")
PY
