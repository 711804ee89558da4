#!/bin/sh
# The image manager's benchmarks of docs/performance.md, in one run:
#  1. a memory-cache hit through the manager (median of 100,000 calls);
#  2. 100 identical concurrent requests: requests in nginx's log, decodes performed;
#  3. 1,000 distinct 640x480 JPEGs from a local nginx, thumbnailed to 256 px and stored in the
#     disk cache, against `webimage fetch` of the same URLs and decoding the same files alone
#     on two threads, and against fetch + decode + store written by hand (the overhead): per
#     round, manager / larger of (fetch, decode alone), then the min, median and max ratio.
#
#   sh Tests/Benchmarks/manager-bench.sh [ROUNDS]      (default 3 rounds)
#
# Needs a release build (`swift build -c release --product webimage` and the plugin
# products), nginx, cjpeg and python3. nginx listens on 127.0.0.1 only, on a free port,
# with a temporary prefix that is removed at the end. The plugins are linked into that prefix,
# outside the install folder, so every command that decodes runs with --isolation none: the
# coders run in-process, as installed plugins do.
set -eu
rounds=${1:-3}
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "$root" && swift build -c release --show-bin-path)
webimage="$bin/webimage"
work=$(mktemp -d /tmp/webimage-manager-bench.XXXXXX)
nginx_pid=""
cleanup() {
  [ -n "$nginx_pid" ] && kill -9 "$nginx_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

mkdir -p "$work/www/jpeg" "$work/plugins" "$work/logs" "$work/tmp"
for manifest in curl memory disk jpeg png; do cp "$root/plugin-manifests/$manifest.json" "$work/plugins/"; done
for library in Curl Memory Disk JPEG PNG; do ln -s "$bin/libWebImage$library.so" "$work/plugins/"; done

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

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$work/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
pid $work/nginx.pid;
error_log $work/logs/error.log warn;
events { worker_connections 1024; }
http {
    log_format requests '\$request_uri \$status';
    access_log $work/logs/access.log requests;
    client_body_temp_path $work/tmp/body;
    proxy_temp_path $work/tmp/proxy;
    fastcgi_temp_path $work/tmp/fastcgi;
    uwsgi_temp_path $work/tmp/uwsgi;
    scgi_temp_path $work/tmp/scgi;
    types { image/jpeg jpg; }
    sendfile on;
    keepalive_requests 100000;
    server { listen 127.0.0.1:$port; root $work/www; }
}
CONF
/usr/sbin/nginx -p "$work" -c "$work/nginx.conf" -e "$work/logs/error.log" &
nginx_pid=$!
until python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null; do sleep 0.1; done
base="http://127.0.0.1:$port/jpeg"
for i in $(seq 0 999); do printf '%s/%04d.jpg\n' "$base" "$i"; done >"$work/urls.txt"
export WEBIMAGE_PLUGIN_PATH="$work/plugins"

echo "== 1. memory-cache hit through the manager"
"$webimage" bench manager memory-hit --cache-dir "$work/cache-hit" --isolation none

echo "== 2. 100 identical concurrent requests"
"$webimage" bench manager coalesce "$base/0000.jpg" --count 100 --cache-dir "$work/cache-coalesce" --isolation none
echo "   nginx log lines for /jpeg/0000.jpg: $(grep -c '^/jpeg/0000.jpg ' "$work/logs/access.log")"

echo "== 3. 1,000 distinct 640x480 JPEGs thumbnailed to 256 px and stored"
# Each round: `webimage fetch` of the 1,000 URLs (its defaults: 6 downloads at once, 6
# connections to the host), then one round of `bench manager pipeline` (decode alone on two
# threads, fetch + decode + store by hand, the manager), so each ratio compares sides measured
# moments apart. The coders run in-process (--isolation none), as installed plugins do; the
# folders written stay until the end, because deleting a thousand files just before a side
# creates a thousand more can make that side's file creation slower (see docs/performance.md).
# CPU seconds are user + system of the client process and of nginx.
mkdir -p "$work/runs"
for round in $(seq 1 "$rounds"); do
  mkdir "$work/runs/fetch-$round"
  fetch=$(python3 - "$webimage" "$work/urls.txt" "$work/runs/fetch-$round" "$nginx_pid" <<'PY'
import os, resource, subprocess, sys, time
webimage, urls, folder, server = sys.argv[1:5]
def server_cpu():
    fields = open(f"/proc/{server}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
server_before, started = server_cpu(), time.monotonic()
subprocess.run([webimage, "fetch", "--from", urls, "-o", folder, "--json"], stdout=subprocess.DEVNULL, check=True)
wall, children = time.monotonic() - started, resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{wall:.3f} {children.ru_utime + children.ru_stime:.3f} {server_cpu() - server_before:.3f}")
PY
  )
  line=$("$webimage" bench manager pipeline --urls "$work/urls.txt" --files "$work/www/jpeg" --thumbnail 256x256 \
    --threads 2 --rounds 1 --isolation none --server-pid "$nginx_pid" --cache-dir "$work/runs/pipeline-$round" \
    | sed -n 's/^round 1: //p')
  load=$(cut -d' ' -f1 /proc/loadavg)
  echo "round $round (load $load): webimage fetch $(echo "$fetch" | awk '{printf "%.3f s (CPU %.3f s, server CPU %.3f s)", $1, $2, $3}'), $line"
  echo "$fetch $line" | awk -v round="$round" '{
    fetch = $1; manager = $5; for (i = 1; i <= NF; i++) if ($i == "threads)") decode = $(i + 1)
    larger = fetch > decode ? fetch : decode
    printf "round %s: manager / larger of (fetch %.3f s, decode alone %.3f s) = %.2f (goal <= 1.15)\n", round, fetch, decode, manager / larger
  }' | tee -a "$work/ratios.txt"
done
echo "== summary"
awk '{ for (i = 1; i <= NF; i++) if ($i == "=") print $(i + 1) }' "$work/ratios.txt" | sort -n | awk '
  { ratio[NR] = $1 } END { printf "ratios over %d rounds: min %.2f, median %.2f, max %.2f\n", NR, ratio[1], ratio[int((NR + 1) / 2)], ratio[NR] }'
