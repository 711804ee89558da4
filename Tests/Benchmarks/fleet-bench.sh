#!/bin/sh
# A fleet of `webimage serve` on Redis against one instance (docs/performance.md, issue #27),
# in one run, ROUNDS times. Every configuration gets the same workload on sources of its own
# (the origin serves one 640x480 JPEG under /v/K/ for any K, so a K is a source no server has
# seen): 1,000 sources, each asked for at two sizes (`rs:fit:256:256` and `rs:fit:128:128`),
# each result 3 times, the 6,000 requests shuffled; curl (16 transfers at a time) asks for
# each once, so a third are misses and the rest hits, from the instance's memory or, in a
# fleet, from Redis when another instance made it.
#
#   one          one instance, results on its disk;
#   one+redis    one instance, results in Redis;
#   fleet        three instances on one Redis behind an nginx balancer (round robin);
#   fleet+orig   the same with --redis-originals: the sources in Redis too;
#   fleet-local  the same three with no Redis: each makes its own misses;
#   fleet-down   the fleet with Redis killed before the run (fail open).
#
# Each line: requests per second over the pass, p50 and p99 latency (ms, curl's time_total),
# origin fetches per request (the origin's access log), Redis commands (round trips) and
# bytes (in + out, Redis's own counters) per request.
#
#   sh Tests/Benchmarks/fleet-bench.sh CORPUS [ROUNDS]   (default 2 rounds)
#
# CORPUS: a make-corpus.sh folder (its jpeg/kleiber-640x480-q85-baseline.jpg). Needs `make
# install` (PREFIX, default out/prefix), nginx, redis-server and curl. Everything listens on
# 127.0.0.1 only, on free ports; the work folder is removed at the end (KEEP_WORK=1 keeps it).
set -eu
corpus=$(cd "${1:?usage: fleet-bench.sh CORPUS [ROUNDS]}" && pwd)
rounds=${2:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
prefix=${PREFIX:-$root/out/prefix}
webimage="$prefix/bin/webimage"
connections=16
sources=1000
work=$(mktemp -d /tmp/webimage-fleet-bench.XXXXXX)
pids=""
cleanup() {
  for pid in $pids; do kill -TERM "$pid" 2>/dev/null || true; done
  if [ -n "${KEEP_WORK:-}" ]; then echo "work folder kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT INT TERM
chmod 755 "$work"
. "$root/Tests/Benchmarks/ports.sh"

# --- The origin: nginx serving one photograph under /v/K/, logging each request.
mkdir -p "$work/origin/www"
cp "$corpus/jpeg/kleiber-640x480-q85-baseline.jpg" "$work/origin/www/photo.jpg"
origin_port=$(free_port)
. "$root/Tests/Benchmarks/nginx-origin.sh"
start_nginx_origin "$work/origin" "$origin_port" 1 log 'rewrite ^/v/[0-9]+/(.*)$ /$1 break;'
pids="$pids $nginx_pid"
origin="http://127.0.0.1:$origin_port"

# --- Redis, no persistence.
redis_port=$(free_port)
start_redis() {
  redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --daemonize no \
    >"$work/redis.log" 2>&1 &
  redis_pid=$!
  pids="$pids $redis_pid"
  wait_port "$redis_port"
}
redis() { redis-cli -p "$redis_port" "$@"; }
# Redis's commands from clients so far, and its bytes in and out (0 0 when it is down).
# INFO commandstats also counts the commands the plugin's lease scripts run inside Redis:
# each EVAL's GET, and the DEL or PEXPIRE after it, are left out.
redis_counters() {
  calls=$(redis INFO commandstats 2>/dev/null | sed -n 's/^cmdstat_\([a-z|]*\):calls=\([0-9]*\),.*/\1 \2/p' |
    awk '$1 ~ /^(info|config)/ || $1 == "del" || $1 == "pexpire" { next }
         $1 == "eval" { scripts += $2 } { total += $2 } END { print total - scripts + 0 }')
  bytes=$(redis INFO stats 2>/dev/null | awk -F: '/^total_net_(input|output)_bytes/ { total += $2 } END { print total + 0 }')
  echo "${calls:-0} ${bytes:-0}"
}
start_redis

# --- The instances and the balancer.
instance_pids=""
start_instance() { # PORT [ARGUMENTS...]
  port=$1
  shift
  "$webimage" serve --listen "127.0.0.1:$port" --allow-unsigned --allow-private-sources \
    --cache-dir "$work/cache-$port" "$@" >"$work/instance-$port.log" 2>&1 &
  instance_pids="$instance_pids $!"
  pids="$pids $!"
  wait_port "$port"
}
stop_instances() {
  for pid in $instance_pids; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  instance_pids=""
}
start_balancer() { # PORTS...
  balancer_port=$(free_port)
  mkdir -p "$work/balancer/logs" "$work/balancer/tmp"
  servers=""
  for port in "$@"; do servers="$servers server 127.0.0.1:$port;"; done
  cat >"$work/balancer/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
pid $work/balancer/nginx.pid;
error_log $work/balancer/logs/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $work/balancer/tmp/body;
    proxy_temp_path $work/balancer/tmp/proxy;
    fastcgi_temp_path $work/balancer/tmp/fastcgi;
    uwsgi_temp_path $work/balancer/tmp/uwsgi;
    scgi_temp_path $work/balancer/tmp/scgi;
    upstream fleet { $servers keepalive 32; }
    server {
        listen 127.0.0.1:$balancer_port;
        location / {
            proxy_pass http://fleet;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_next_upstream error timeout http_502 http_503;
        }
    }
}
CONF
  nginx -p "$work/balancer" -c "$work/balancer/nginx.conf" -e "$work/balancer/logs/error.log" &
  balancer_pid=$!
  pids="$pids $balancer_pid"
  wait_port "$balancer_port"
}
stop_balancer() { kill -TERM "$balancer_pid" 2>/dev/null || true; wait "$balancer_pid" 2>/dev/null || true; }

# paths FIRST_SOURCE: the workload's 6,000 paths, in work/paths.txt.
paths() {
  python3 - "$1" "$sources" "$origin" >"$work/paths.txt" <<'PY'
import random, sys
first, count, origin = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
paths = [f"/insecure/rs:fit:{size}:{size}/plain/{origin}/v/{k}/photo.jpg@jpg"
         for k in range(first, first + count) for size in (256, 128) for _ in range(3)]
random.Random(first).shuffle(paths)
print("\n".join(paths))
PY
}

# run NAME BASE: one pass over the paths against BASE (curl, 16 transfers at a time on
# kept-alive connections, each path once), one line of results.
run() {
  before_fetches=$(wc -l <"$work/origin/logs/access.log")
  set -- "$1" "$2" $(redis_counters)
  sed "s|^|url = \"$2|; s|\$|\"\\noutput = \"/dev/null\"|" "$work/paths.txt" >"$work/paths.curl"
  started=$(date +%s.%N)
  curl -s --no-progress-meter --parallel --parallel-immediate --parallel-max $connections \
    -w '%{http_code} %{time_total}\n' -K "$work/paths.curl" >"$work/answers.txt"
  finished=$(date +%s.%N)
  sleep 1 # nginx logs a request after answering it
  fetches=$(($(wc -l <"$work/origin/logs/access.log") - before_fetches))
  counters=$(redis_counters)
  python3 - "$1" "$work/answers.txt" "$started" "$finished" "$fetches" "$3" "$4" $counters <<'PY' | tee -a "$work/results.txt"
import sys
name, answers, started, finished, fetches, calls0, bytes0, calls1, bytes1 = sys.argv[1:]
lines = [line.split() for line in open(answers)]
times = sorted(float(t) * 1000 for _, t in lines)
n = len(lines)
failed = sum(1 for code, _ in lines if code != "200")
seconds = float(finished) - float(started)
percentile = lambda p: times[min(n - 1, int(p / 100 * n))]
calls, size = max(0, int(calls1) - int(calls0)), max(0, int(bytes1) - int(bytes0))
print(f"{name:12} requests={n} failed={failed} seconds={seconds:.2f} rps={n / seconds:.1f} "
      f"p50_ms={percentile(50):.2f} p99_ms={percentile(99):.2f} origin_fetches_per_request={int(fetches) / n:.3f} "
      f"redis_commands_per_request={calls / n:.2f} redis_bytes_per_request={size / n:.0f}")
PY
}

echo "webimage: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown); $(redis-server --version | cut -d' ' -f1-3); $(nginx -v 2>&1)"
echo "curl: $connections transfers at a time, one pass of $((sources * 6)) requests; $(nproc) cores"
first=0
for round in $(seq 1 "$rounds"); do
  echo "== round $round (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
  for configuration in one one+redis fleet fleet+orig fleet-local fleet-down; do
    paths "$first"
    first=$((first + sources))
    redis_arguments="--redis-url redis://127.0.0.1:$redis_port"
    [ "$configuration" = fleet+orig ] && redis_arguments="$redis_arguments --redis-originals"
    case $configuration in
      one | fleet-local) redis_arguments="" ;;
      fleet-down) kill -TERM "$redis_pid"; wait "$redis_pid" 2>/dev/null || true ;;
      *) redis FLUSHALL >/dev/null; redis CONFIG RESETSTAT >/dev/null ;;
    esac
    case $configuration in
      one*)
        port=$(free_port)
        # shellcheck disable=SC2086 # the arguments are split on purpose
        start_instance "$port" $redis_arguments
        run "$configuration" "http://127.0.0.1:$port"
        ;;
      fleet*)
        ports="$(free_port) $(free_port) $(free_port)"
        # shellcheck disable=SC2086
        for port in $ports; do start_instance "$port" $redis_arguments; done
        # shellcheck disable=SC2086
        start_balancer $ports
        run "$configuration" "http://127.0.0.1:$balancer_port"
        stop_balancer
        ;;
    esac
    stop_instances
    [ "$configuration" = fleet-down ] && start_redis
  done
done
