#!/bin/sh
# Benchmarks `webimage fetch` against curl on the same files from a local nginx, interleaved
# in one run, and prints the minimum wall time of each and the throughput ratio.
#
#   sh Tests/Benchmarks/fetch-bench.sh [ROUNDS]      (default 5 rounds)
#
# Needs a release build (`swift build -c release --product webimage` and `--product
# WebImageCurl`), nginx, curl and openssl. nginx listens on 127.0.0.1 only, on free ports,
# with a temporary prefix that is removed at the end.
set -eu
rounds=${1:-5}
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "$root" && swift build -c release --show-bin-path)
work=$(mktemp -d /tmp/webimage-fetch-bench.XXXXXX)
nginx_pid=""
cleanup() {
  [ -n "$nginx_pid" ] && kill -9 "$nginx_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

mkdir -p "$work/www/mixed" "$work/www/tiny" "$work/plugins" "$work/logs" "$work/tmp"
cp "$root/plugin-manifests/curl.json" "$work/plugins/"
ln -s "$bin/libWebImageCurl.so" "$work/plugins/libWebImageCurl.so"

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

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
http_port=$(free_port); https_port=$(free_port)
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=127.0.0.1 \
  -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
. "$root/Tests/Benchmarks/nginx-origin.sh"
start_nginx_origin "$work" "$http_port" 1 nolog "listen 127.0.0.1:$https_port ssl http2;
        ssl_certificate $work/cert.pem;
        ssl_certificate_key $work/key.pem;"

now() { date +%s.%N; }
# run NAME COMMAND...: runs the command into a fresh folder, prints the seconds it took.
run() {
  rm -rf "$work/out"; mkdir "$work/out"
  start=$(now); "$@" >/dev/null 2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }; end=$(now)
  echo "$end - $start" | bc
}

bench() { # bench LABEL SET BASE CURL_FLAGS WEBIMAGE_FLAGS
  label=$1; set_name=$2; base=$3; curl_flags=$4; webimage_flags=$5
  : > "$work/urls"
  for i in $(seq -f %04g 0 999); do echo "$base/$set_name/$i.bin" >> "$work/urls"; done
  curl_min=999999; webimage_min=999999
  for _ in $(seq "$rounds"); do
    # shellcheck disable=SC2086
    t=$(run curl -s --parallel --parallel-max 6 $curl_flags --output-dir "$work/out" --remote-name-all $(cat "$work/urls"))
    curl_min=$(echo "if ($t < $curl_min) $t else $curl_min" | bc)
    # shellcheck disable=SC2086
    t=$(run "$bin/webimage" fetch --plugin-path "$work/plugins" --parallel 6 $webimage_flags --from "$work/urls" -o "$work/out")
    [ "$(ls "$work/out" | wc -l)" = 1000 ] || { echo "webimage wrote $(ls "$work/out" | wc -l) files" >&2; exit 1; }
    webimage_min=$(echo "if ($t < $webimage_min) $t else $webimage_min" | bc)
  done
  ratio=$(echo "scale=3; $curl_min / $webimage_min" | bc)
  if [ "$set_name" = mixed ]; then
    printf '%-28s curl %6.3f s (%5.0f MB/s)  webimage %6.3f s (%5.0f MB/s)  throughput webimage/curl %s\n' "$label" \
      "$curl_min" "$(echo "$total / $curl_min / 1000000" | bc -l)" "$webimage_min" "$(echo "$total / $webimage_min / 1000000" | bc -l)" "$ratio"
  else
    printf '%-28s curl %6.3f s (%5.0f µs/request)  webimage %6.3f s (%5.0f µs/request)  throughput webimage/curl %s\n' "$label" \
      "$curl_min" "$(echo "$curl_min * 1000" | bc -l)" "$webimage_min" "$(echo "$webimage_min * 1000" | bc -l)" "$ratio"
  fi
}

echo "1,000 files, $total bytes (20-500 KB), min of $rounds rounds, interleaved:"
bench "HTTP/1.1 mixed" mixed "http://127.0.0.1:$http_port" "--http1.1" "--http1"
bench "HTTP/2 (TLS) mixed" mixed "https://127.0.0.1:$https_port" "-k --http2" "--insecure"
bench "HTTP/1.1 1-byte files" tiny "http://127.0.0.1:$http_port" "--http1.1" "--http1"
bench "HTTP/2 (TLS) 1-byte files" tiny "https://127.0.0.1:$https_port" "-k --http2" "--insecure"
