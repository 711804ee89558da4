#!/bin/sh
# `webimage serve` against thumbor and nginx (docs/performance.md), in one run, ROUNDS times:
#  a. misses: every request a source URL not asked for before (the origin serves each file
#     under /v/K/... for any K), so each is an origin fetch, a decode, a resize, an encode and
#     a store in both servers;
#  b. hits: the same results asked for again, from each server's result cache; nginx serving
#     the result bytes of `webimage serve` as static files is the limit;
# for two workloads: 1,000 640x480 JPEG photographs to 256 px thumbnails (`rs:fit:256:256`,
# thumbor's `fit-in/256x256`), and the corpus' 4000x3000 JPEG fit into 500x500 (imgproxy's
# published benchmark case). wrk (2 threads, 8 connections) for DURATION seconds a phase;
# requests per second, p50 and p99 latency; peak RSS (VmHWM, summed over thumbor's processes)
# after each phase. Each server starts afresh, with empty caches, in each round. Last, a
# flood: 64 connections asking `webimage serve` for distinct 4000x3000 sources, to show its
# memory bound (at most --max-concurrent requests hold a source and its pixels; the others
# wait in a queue of --max-queue, or get 503).
#
#   sh Tests/Benchmarks/serve-bench.sh CORPUS [ROUNDS] [DURATION]   (default 3 rounds, 20 s)
#
# CORPUS: a make-corpus.sh folder (its jpeg/kleiber-4000x3000-q85-baseline.jpg and the source
# photographs in src/). Needs `make install` (PREFIX, default out/prefix: the installed
# plugins run in-process), thumbor 7.8 in the virtual environment THUMBOR_VENV (default
# .build-bench/thumbor-venv: `python3 -m venv DIR && DIR/bin/pip install thumbor==7.8.0
# pycurl`), nginx and wrk. Everything listens on 127.0.0.1 only, on free ports; the work
# folder is removed at the end.
set -eu
corpus=$(cd "${1:?usage: serve-bench.sh CORPUS [ROUNDS] [DURATION]}" && pwd)
rounds=${2:-3}
duration=${3:-20}
root=$(cd "$(dirname "$0")/../.." && pwd)
prefix=${PREFIX:-$root/out/prefix}
venv=${THUMBOR_VENV:-$root/.build-bench/thumbor-venv}
webimage="$prefix/bin/webimage"
python="$venv/bin/python"
threads=2
connections=8
flood_connections=64
key=736563726574
salt=68656c6c6f
thumbor_key=bench-thumbor-key
work=$(mktemp -d /tmp/webimage-serve-bench.XXXXXX)
pids=""
cleanup() {
  for pid in $pids; do pkill -TERM -P "$pid" 2>/dev/null || true; kill -TERM "$pid" 2>/dev/null || true; done
  if [ -n "${KEEP_WORK:-}" ]; then echo "work folder kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT INT TERM
chmod 755 "$work" # nginx's workers run as nobody
. "$root/Tests/Benchmarks/ports.sh"

# --- The origin: nginx serving the sources, and the results as static files (the limit).
mkdir -p "$work/www/jpeg" "$work/www/results" "$work/logs" "$work/tmp"
origin_port=$(free_port)
. "$root/Tests/Benchmarks/nginx-origin.sh"
start_nginx_origin "$work" "$origin_port" 2 nolog 'rewrite ^/v/[0-9]+/(.*)$ /$1 break;'
pids="$pids $nginx_pid"
origin="http://127.0.0.1:$origin_port"

# --- The sources (serve-sources.py) and the request paths: misses go through /v/K/ for
# K = 0, 1, 2, ... (distinct sources), hits through /v/999999/.
"$python" "$root/Tests/Benchmarks/serve-sources.py" "$corpus" "$work/www"
"$python" - "$work" "$origin" "$key" "$salt" "$thumbor_key" <<'PY'
import base64, hashlib, hmac, sys
from libthumbor import CryptoURL
work, origin, key, salt, thumbor_key = sys.argv[1:]

def signed(path):
    digest = hmac.new(bytes.fromhex(key), bytes.fromhex(salt) + path.encode(), hashlib.sha256).digest()
    return "/" + base64.urlsafe_b64encode(digest).decode().rstrip("=") + path

crypto = CryptoURL(key=thumbor_key)
def thumbor(size, source):
    return crypto.generate(width=size, height=size, fit_in=True, image_url=source.removeprefix("http://"))

def write(name, lines):
    with open(f"{work}/{name}.txt", "w") as file:
        file.write("".join(line + "\n" for line in lines))

small_misses = [f"{origin}/v/{k}/jpeg/{i:04d}.jpg" for k in range(60) for i in range(1000)]
small_hits = [f"{origin}/v/999999/jpeg/{i:04d}.jpg" for i in range(1000)]
big_misses = [f"{origin}/v/{k}/big.jpg" for k in range(20000)]
big_hits = [f"{origin}/v/999999/big.jpg"]
for workload, size, misses, hits in (("small", 256, small_misses, small_hits), ("big", 500, big_misses, big_hits)):
    write(f"webimage-{workload}-misses", [signed(f"/rs:fit:{size}:{size}/plain/{url}") for url in misses])
    write(f"webimage-{workload}-hits", [signed(f"/rs:fit:{size}:{size}/plain/{url}") for url in hits])
    write(f"thumbor-{workload}-misses", [thumbor(size, url) for url in misses])
    write(f"thumbor-{workload}-hits", [thumbor(size, url) for url in hits])
# A flood of distinct large sources, for the memory bound of `webimage serve`.
write("webimage-big-flood", [signed(f"/rs:fit:500:500/plain/{origin}/v/{100000 + k}/big.jpg") for k in range(20000)])
write("nginx-small-hits", [f"/results/{i:04d}.jpg" for i in range(1000)])
write("nginx-big-hits", ["/results/big.jpg"])
PY

# The peak RSS of a process and its children, in MiB.
peak_rss() {
  total=0
  for pid in "$1" $(pgrep -P "$1" || true); do
    kb=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0)
    total=$((total + ${kb:-0}))
  done
  echo $((total / 1024))
}

# run_wrk SERVER WORKLOAD PHASE BASE PATHS [CONNECTIONS]: one wrk phase, one line of results.
run_wrk() {
  line=$(BENCH_PATHS="$5" BENCH_THREADS=$threads wrk -t$threads -c"${6:-$connections}" -d"${duration}s" --timeout 30s \
    -s "$root/Tests/Benchmarks/serve-bench.lua" "$4" | grep '^RESULT' | sed 's/^RESULT //')
  printf '%-9s %-6s %-7s %s peak_rss_mib=%s\n' "$1" "$2" "$3" "$line" "$(peak_rss "$server_pid")" | tee -a "$work/results.txt"
}

# warm BASE PATHS [SAVE]: asks for every path once, 4 at a time, saving the bodies in SAVE
# (default: nowhere).
warm() {
  i=0
  while read -r path; do
    if [ $# -eq 3 ]; then output=$(printf '%s/%04d.jpg' "$3" "$i"); else output=/dev/null; fi
    printf 'url = "%s%s"\noutput = "%s"\n' "$1" "$path" "$output"
    i=$((i + 1))
  done <"$2" >"$work/warm.curl"
  curl -sf --no-progress-meter --parallel --parallel-max 4 -K "$work/warm.curl"
}

start_webimage() {
  rm -rf "$work/webimage-cache"
  port=$(free_port)
  "$webimage" serve --listen "127.0.0.1:$port" --key "$key" --salt "$salt" --allow-private-sources \
    --cache-dir "$work/webimage-cache" >"$work/logs/webimage.log" 2>&1 &
  server_pid=$!
  pids="$pids $server_pid"
  wait_port "$port"
  base="http://127.0.0.1:$port"
}

start_thumbor() {
  rm -rf "$work/thumbor-storage" "$work/thumbor-results"
  port=$(free_port)
  cat >"$work/thumbor.conf" <<CONF
SECURITY_KEY = '$thumbor_key'
ALLOW_UNSAFE_URL = False
LOADER = 'thumbor.loaders.http_loader'
HTTP_LOADER_CURL_ASYNC_HTTP_CLIENT = True
STORAGE = 'thumbor.storages.file_storage'
FILE_STORAGE_ROOT_PATH = '$work/thumbor-storage'
RESULT_STORAGE = 'thumbor.result_storages.file_storage'
RESULT_STORAGE_FILE_STORAGE_ROOT_PATH = '$work/thumbor-results'
QUALITY = 80
CONF
  "$venv/bin/thumbor" --port "$port" --ip 127.0.0.1 --conf "$work/thumbor.conf" --processes 0 -l warning \
    >"$work/logs/thumbor.log" 2>&1 &
  server_pid=$!
  pids="$pids $server_pid"
  wait_port "$port"
  base="http://127.0.0.1:$port"
}

stop_server() {
  pkill -TERM -P "$server_pid" 2>/dev/null || true
  kill -TERM "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
}

echo "webimage: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown); thumbor: $("$venv/bin/thumbor" --version); $(nginx -v 2>&1); $(wrk --version 2>&1 | head -1)"
echo "wrk: $threads threads, $connections connections, ${duration} s a phase; $(nproc) cores"
for round in $(seq 1 "$rounds"); do
  echo "== round $round (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
  for server in webimage thumbor; do
    "start_$server"
    for workload in small big; do
      run_wrk "$server" "$workload" misses "$base" "$work/$server-$workload-misses.txt"
      if [ "$server" = webimage ] && [ "$round" = 1 ]; then
        if [ "$workload" = small ]; then warm "$base" "$work/webimage-small-hits.txt" "$work/www/results"
        else curl -sf -o "$work/www/results/big.jpg" "$base$(cat "$work/webimage-big-hits.txt")"; fi
      else
        warm "$base" "$work/$server-$workload-hits.txt"
      fi
      run_wrk "$server" "$workload" hits "$base" "$work/$server-$workload-hits.txt"
    done
    if [ "$server" = webimage ]; then
      run_wrk webimage big flood "$base" "$work/webimage-big-flood.txt" $flood_connections
    fi
    stop_server
  done
  server_pid=$(cat "$work/nginx.pid")
  for workload in small big; do run_wrk nginx "$workload" hits "$origin" "$work/nginx-$workload-hits.txt"; done
done

echo "== the results' sizes (webimage | thumbor)"
"$python" - "$work" <<'PY'
import glob, sys
from PIL import Image
for path in (f"{sys.argv[1]}/www/results/0000.jpg", f"{sys.argv[1]}/www/results/big.jpg"):
    with Image.open(path) as image: print(path.rsplit("/", 1)[1], image.format, image.size)
PY

echo "== minimum over rounds of each ratio (requests per second; p99 latency; peak RSS)"
python3 - "$work/results.txt" <<'PY'
import collections, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    server, workload, phase, *fields = line.split()
    runs[server, workload, phase].append({k: float(v) for k, v in (f.split("=") for f in fields)})
rounds = len(runs["webimage", "small", "misses"])
for workload in ("small", "big"):
    w, t = runs["webimage", workload, "misses"], runs["thumbor", workload, "misses"]
    rps = [w[r]["rps"] / t[r]["rps"] for r in range(rounds)]
    p99 = [w[r]["p99_ms"] / t[r]["p99_ms"] for r in range(rounds)]
    print(f"{workload} misses: webimage/thumbor rps min {min(rps):.2f}x (rounds {', '.join(f'{x:.2f}' for x in rps)}); "
          f"p99 webimage/thumbor max {max(p99):.2f} (rounds {', '.join(f'{x:.2f}' for x in p99)})")
    w, n = runs["webimage", workload, "hits"], runs["nginx", workload, "hits"]
    hits = [w[r]["rps"] / n[r]["rps"] for r in range(rounds)]
    print(f"{workload} hits: webimage/nginx rps min {min(hits):.2f}x (rounds {', '.join(f'{x:.2f}' for x in hits)})")
flood = runs["webimage", "big", "flood"]
print(f"flood of distinct 4000x3000 sources on 64 connections: webimage peak RSS max {max(r['peak_rss_mib'] for r in flood):.0f} MiB, "
      f"non-2xx {sum(r['non2xx'] for r in flood):.0f}, p99 max {max(r['p99_ms'] for r in flood):.0f} ms")
# Over the phases both servers run (the flood, webimage's alone, is above).
for server in ("webimage", "thumbor"):
    peak = max(r["peak_rss_mib"] for k, v in runs.items() if k[0] == server and k[2] != "flood" for r in v)
    print(f"{server} peak RSS over misses and hits: max {peak:.0f} MiB")
PY
