#!/bin/sh
# Misses of `webimage serve` for one or more installs side by side (before and after a change),
# in one run (docs/performance.md): in each of ROUNDS rounds, each install's server starts from
# empty caches and wrk (2 threads, 8 connections) asks it for DURATION seconds for sources it
# has not seen (the origin serves each file under /v/K/... for any K), so every request is an
# origin fetch, a decode, a resize, an encode and two disk stores; first the thumbnails
# (1,000 640x480 JPEGs, rs:fit:256:256), then the 4000x3000 JPEG fit into 500x500. Prints per
# phase the requests per second, p50 and p99 latency, the server's CPU time (user + system) per
# request, and the load average.
#
#   sh Tests/Benchmarks/serve-misses-bench.sh CORPUS ROUNDS DURATION PREFIX...
#
# CORPUS: a make-corpus.sh folder; each PREFIX a `make install` prefix. The sources are made by
# serve-sources.py with PYTHON (default: the thumbor virtual environment's, which has Pillow).
# Everything listens on 127.0.0.1 only; the work folder is removed at the end.
set -eu
corpus=$(cd "${1:?usage: serve-misses-bench.sh CORPUS ROUNDS DURATION PREFIX...}" && pwd)
rounds=${2:?rounds}
duration=${3:?duration}
shift 3
root=$(cd "$(dirname "$0")/../.." && pwd)
python=${PYTHON:-$root/.build-bench/thumbor-venv/bin/python}
bench_name=misses-bench
. "$root/Tests/Benchmarks/serve-installs.sh"

mkdir -p "$work/www/jpeg"
"$python" "$root/Tests/Benchmarks/serve-sources.py" "$corpus" "$work/www"
origin_port=$(free_port)
. "$root/Tests/Benchmarks/nginx-origin.sh"
start_nginx_origin "$work" "$origin_port" 2 nolog 'rewrite ^/v/[0-9]+/(.*)$ /$1 break;'
origin="http://127.0.0.1:$origin_port"
# Every path once: 60 x 1,000 thumbnails and 20,000 large sources, more than any phase asks for.
for k in $(seq 0 59); do
  sign $(for i in $(seq -w 0 999); do echo "/rs:fit:256:256/plain/$origin/v/$k/jpeg/0$i.jpg"; done)
done >"$work/small.txt"
sign $(for k in $(seq 0 19999); do echo "/rs:fit:500:500/plain/$origin/v/$k/big.jpg"; done) >"$work/big.txt"

# The CPU time of a process in clock ticks (user + system).
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; wrk 2 threads, 8 connections, $duration s"
for round in $(seq 1 "$rounds"); do
  for prefix in "$@"; do
    for workload in small big; do
      start_serve "$prefix"
      before=$(cpu_ticks "$server_pid")
      line=$(BENCH_PATHS="$work/$workload.txt" BENCH_THREADS=2 wrk -t2 -c8 -d"${duration}s" --timeout 30s \
        -s "$root/Tests/Benchmarks/serve-bench.lua" "$base" | grep '^RESULT' | sed 's/^RESULT //')
      ticks=$(($(cpu_ticks "$server_pid") - before))
      requests=$(echo "$line" | sed 's/.*requests=\([0-9]*\).*/\1/')
      cpu=$(awk -v t="$ticks" -v r="$requests" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t * 1000 / hz / r }')
      echo "round $round $workload $prefix: $line cpu_ms_per_request=$cpu load=$(cut -d' ' -f1 /proc/loadavg)"
      stop_serve
    done
  done
done
