#!/bin/sh
# Benchmarks `webimage fetch` against curl on the same files from a local nginx, interleaved
# in one run, and prints for each tool the minimum over the rounds of the wall time, of the
# CPU time (user + system of the client process) and of the peak resident memory, with the
# ratios webimage/curl (throughput: curl's time over webimage's; CPU and memory: webimage's
# over curl's).
#
#   sh Tests/Benchmarks/fetch-bench.sh [ROUNDS]                 (default 5 rounds)
#   PREFIX=/opt/webimage sh Tests/Benchmarks/fetch-bench.sh 5   (an installed webimage)
#   BASELINE=/opt/webimage-old sh Tests/Benchmarks/fetch-bench.sh 5
#       (also an earlier install, interleaved in the same rounds: before and after in one run)
#
# Needs a release build (`swift build -c release --product webimage` and `--product
# WebImageCurl`) or, with PREFIX, a `make install PREFIX=...`; nginx, curl, openssl and
# python3. nginx listens on 127.0.0.1 only, on free ports, with a temporary prefix that is
# removed at the end.
set -eu
rounds=${1:-5}
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/Tests/Benchmarks/release-paths.sh"
curl_plugin="$plugins/libWebImageCurl.so"
work=$(mktemp -d /tmp/webimage-fetch-bench.XXXXXX)
# The clients write into /dev/shm when it is there: on this machine's ext4, creating files soon
# after others were deleted costs up to a CPU second per thousand (docs/performance.md), which
# is the file system's time, not the clients'. OUT_ROOT=DIR writes elsewhere.
out_root=${OUT_ROOT:-$work}
[ -z "${OUT_ROOT:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] && out_root=$(mktemp -d /dev/shm/webimage-fetch-bench.XXXXXX)
out="$out_root/out"
nginx_pid=""
cleanup() {
  [ -n "$nginx_pid" ] && kill -9 "$nginx_pid" 2>/dev/null || true
  rm -rf "$out"
  rm -rf "$work"
  [ "$out_root" != "$work" ] && [ -z "${OUT_ROOT:-}" ] && rmdir "$out_root" 2>/dev/null || true
}
trap cleanup EXIT INT TERM

mkdir -p "$work/www/mixed" "$work/www/tiny" "$work/plugins" "$work/logs" "$work/tmp"
cp "$root/plugin-manifests/curl.json" "$work/plugins/"
ln -s "$curl_plugin" "$work/plugins/libWebImageCurl.so"
if [ -n "${BASELINE:-}" ]; then
  mkdir "$work/baseline-plugins"
  cp "$BASELINE/lib/webimage/plugins/curl.json" "$work/baseline-plugins/"
  ln -s "$BASELINE/lib/webimage/plugins/libWebImageCurl.so" "$work/baseline-plugins/"
fi

# 1,000 files of 20 KB to 500 KB (sizes from a fixed seed) and 1,000 files of 1 byte.
python3 - "$work/www" <<'PY'
import os, random, sys
random.seed(1)
root = sys.argv[1]
chunk = os.urandom(500_000)
for i in range(1000):
    size = random.randint(20_000, 500_000)
    with open(f"{root}/mixed/{i:04d}.bin", "wb") as f: f.write(chunk[:size])
    with open(f"{root}/tiny/{i:04d}.bin", "wb") as f: f.write(b"x")
PY
total=$(du -sb "$work/www/mixed" | cut -f1)

. "$root/Tests/Benchmarks/ports.sh"
http_port=$(free_port); https_port=$(free_port)
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=127.0.0.1 \
  -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
. "$root/Tests/Benchmarks/nginx-origin.sh"
start_nginx_origin "$work" "$http_port" 1 nolog "listen 127.0.0.1:$https_port ssl http2;
        ssl_certificate $work/cert.pem;
        ssl_certificate_key $work/key.pem;"

# run COMMAND...: runs the command into a fresh folder and prints its wall seconds, its CPU
# seconds (user + system) and its peak resident memory in KiB.
run() {
  rm -rf "$out"; mkdir "$out"
  python3 - "$work/stderr" "$@" <<'PY' || { cat "$work/stderr" >&2; exit 1; }
import resource, subprocess, sys, time
with open(sys.argv[1], "w") as errors:
    start = time.monotonic()
    subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=errors, check=True)
    wall = time.monotonic() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{wall:.3f} {usage.ru_utime + usage.ru_stime:.3f} {usage.ru_maxrss}")
PY
}
min() { echo "if ($1 < $2) $1 else $2" | bc; }

bench() { # bench LABEL SET BASE CURL_FLAGS WEBIMAGE_FLAGS
  label=$1; set_name=$2; base=$3; curl_flags=$4; webimage_flags=$5
  : > "$work/urls"
  for i in $(seq -f %04g 0 999); do echo "$base/$set_name/$i.bin" >> "$work/urls"; done
  curl_wall=999999; curl_cpu=999999; curl_rss=999999999; webimage_wall=999999; webimage_cpu=999999; webimage_rss=999999999
  baseline_wall=999999; baseline_cpu=999999; baseline_rss=999999999
  for _ in $(seq "$rounds"); do
    # shellcheck disable=SC2086
    set -- $(run curl -s --parallel --parallel-max 6 $curl_flags --output-dir "$out" --remote-name-all $(cat "$work/urls"))
    curl_wall=$(min "$1" "$curl_wall"); curl_cpu=$(min "$2" "$curl_cpu"); curl_rss=$(min "$3" "$curl_rss")
    # shellcheck disable=SC2086
    set -- $(run "$bin/webimage" fetch --plugin-path "$work/plugins" --parallel 6 $webimage_flags --from "$work/urls" -o "$out")
    [ "$(ls "$out" | wc -l)" = 1000 ] || { echo "webimage wrote $(ls "$out" | wc -l) files" >&2; exit 1; }
    webimage_wall=$(min "$1" "$webimage_wall"); webimage_cpu=$(min "$2" "$webimage_cpu"); webimage_rss=$(min "$3" "$webimage_rss")
    if [ -n "${BASELINE:-}" ]; then
      # shellcheck disable=SC2086
      set -- $(run "$BASELINE/bin/webimage" fetch --plugin-path "$work/baseline-plugins" --parallel 6 $webimage_flags --from "$work/urls" -o "$out")
      baseline_wall=$(min "$1" "$baseline_wall"); baseline_cpu=$(min "$2" "$baseline_cpu"); baseline_rss=$(min "$3" "$baseline_rss")
    fi
  done
  printf '%-26s wall curl %6.3f s, webimage %6.3f s, throughput webimage/curl %.2f | CPU %.2f s, %.2f s, %.2fx | peak RSS %d MiB, %d MiB, %.2fx\n' \
    "$label" "$curl_wall" "$webimage_wall" "$(echo "$curl_wall / $webimage_wall" | bc -l)" \
    "$curl_cpu" "$webimage_cpu" "$(echo "$webimage_cpu / $curl_cpu" | bc -l)" \
    "$((curl_rss / 1024))" "$((webimage_rss / 1024))" "$(echo "$webimage_rss / $curl_rss" | bc -l)"
  if [ -n "${BASELINE:-}" ]; then
    printf '%-26s baseline: wall %6.3f s, throughput baseline/curl %.2f | CPU %.2f s, %.2fx | peak RSS %d MiB\n' \
      "" "$baseline_wall" "$(echo "$curl_wall / $baseline_wall" | bc -l)" "$baseline_cpu" \
      "$(echo "$baseline_cpu / $curl_cpu" | bc -l)" "$((baseline_rss / 1024))"
  fi
}

echo "1,000 files, $total bytes (20-500 KB) or 1 byte each, written to $out_root, min of $rounds rounds, interleaved; load average $(cut -d' ' -f1-3 /proc/loadavg):"
bench "HTTP/1.1 mixed" mixed "http://127.0.0.1:$http_port" "--http1.1" "--http1"
bench "HTTP/2 (TLS) mixed" mixed "https://127.0.0.1:$https_port" "-k --http2" "--insecure"
bench "HTTP/1.1 1-byte files" tiny "http://127.0.0.1:$http_port" "--http1.1" "--http1"
bench "HTTP/2 (TLS) 1-byte files" tiny "https://127.0.0.1:$https_port" "-k --http2" "--insecure"
