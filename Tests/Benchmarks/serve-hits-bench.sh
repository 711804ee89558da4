#!/bin/sh
# Memory hits of `webimage serve` against nginx serving the same result as a static file, for
# one or more installs side by side (before and after a change), in one run (docs/performance.md):
# in each of ROUNDS rounds, each install's server starts from empty caches, makes one 256x192
# thumbnail of a 1920x1080 photograph (rs:fit:256:256, a signed URL), and wrk (2 threads,
# 8 connections) asks for it again for DURATION seconds; then nginx (2 workers, no access
# log) serves those result bytes. Prints requests per second per round, and the load average.
#
#   sh Tests/Benchmarks/serve-hits-bench.sh CORPUS ROUNDS DURATION PREFIX...
#
# CORPUS: a make-corpus.sh folder (its jpeg/garden-1920x1080-q85-baseline.jpg); each PREFIX a
# `make install` prefix. Everything listens on 127.0.0.1 only; the work folder is removed at the end.
set -eu
corpus=$(cd "${1:?usage: serve-hits-bench.sh CORPUS ROUNDS DURATION PREFIX...}" && pwd)
rounds=${2:?rounds}
duration=${3:?duration}
shift 3
root=$(cd "$(dirname "$0")/../.." && pwd)
bench_name=hits-bench
. "$root/Tests/Benchmarks/serve-installs.sh"

mkdir -p "$work/www/results"
cp "$corpus/jpeg/garden-1920x1080-q85-baseline.jpg" "$work/www/source.jpg"
origin_port=$(free_port)
. "$root/Tests/Benchmarks/nginx-origin.sh"
start_nginx_origin "$work" "$origin_port" 2 nolog
path=$(sign "/rs:fit:256:256/plain/http://127.0.0.1:$origin_port/source.jpg")
rps() { wrk -t2 -c8 -d"${duration}s" "$1" | awk '/Requests\/sec/ { print $2 }'; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; wrk 2 threads, 8 connections, $duration s"
for round in $(seq 1 "$rounds"); do
  for prefix in "$@"; do
    start_serve "$prefix"
    curl -sf -o "$work/www/results/result.jpg" "$base$path"
    echo "round $round webimage $prefix: $(rps "$base$path") requests/s"
    stop_serve
  done
  echo "round $round nginx static: $(rps "http://127.0.0.1:$origin_port/results/result.jpg") requests/s"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
