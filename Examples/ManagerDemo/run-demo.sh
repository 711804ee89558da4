#!/bin/sh
# The image manager's main job, step by step (`make demo` runs it after installing):
# serves a temporary copy of Examples/sample-images with a local nginx on 127.0.0.1 (stopped
# at the end, whatever happens), prefetches every image into a fresh cache, then gets a few
# twice with a thumbnail and a transformation: first from the network, then from the cache.
# Usage: run-demo.sh WEBIMAGE SAMPLES_DIR
set -eu
webimage=$1
samples=$2
work=$(mktemp -d /tmp/webimage-demo.XXXXXX)
nginx_pid=""
cleanup() {
  if [ -n "$nginx_pid" ]; then kill "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

mkdir -p "$work/www/images" "$work/logs" "$work/tmp" "$work/cache"
cp "$samples"/*.jpg "$samples"/*.png "$samples"/*.gif "$work/www/images/"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# The same local nginx the benchmark scripts use.
. "$(dirname "$0")/../../Tests/Benchmarks/nginx-origin.sh"
start_nginx_origin "$work" "$port" 1 log
base="http://127.0.0.1:$port/images"
requests() { wc -l <"$work/logs/access.log" | tr -d ' '; }
echo "== nginx serves a copy of $samples at $base (pid $nginx_pid)"

urls=""
for image in "$work"/www/images/*; do urls="$urls $base/$(basename "$image")"; done
echo
echo "== webimage prefetch$urls --cache-dir $work/cache --json"
# shellcheck disable=SC2086
"$webimage" prefetch $urls --cache-dir "$work/cache" --json
echo "   nginx has answered $(requests) requests"

get_twice() {
  "$webimage" get "$base/landscape.jpg" "$base/orbit.gif" --thumbnail 256x256 --transform round-corner:24 \
    --cache-dir "$work/cache-get" --json "$@"
}
echo
echo "== webimage get landscape.jpg orbit.gif --thumbnail 256x256 --transform round-corner:24 --cache-dir (a new cache) --json"
echo "   first: from the network, decoded to thumbnails, transformed (not the animation: no transform-animated-image), stored"
get_twice --output-dir "$work"
echo "   nginx has answered $(requests) requests"
echo
echo "== the same again: the transformed thumbnails come from the disk cache"
get_twice
echo "   nginx has answered $(requests) requests"
echo
echo "== the prefetched cache answers with no request: webimage get ... --options from-cache-only"
# shellcheck disable=SC2086
"$webimage" get$urls --cache-dir "$work/cache" --options from-cache-only --json
echo "   nginx has answered $(requests) requests"

echo
echo "== webimage get badge.png --thumbnail 128x128 --options from-loader-only   (skips the cache: from the network)"
"$webimage" get "$base/badge.png" --thumbnail 128x128 --options from-loader-only --cache-dir "$work/cache" --json
echo "== webimage get badge.png --thumbnail 128x128 --options refresh-cached   (cached image first, then a conditional request: 304)"
"$webimage" get "$base/badge.png" --thumbnail 128x128 --options refresh-cached --cache-dir "$work/cache" --json
echo "   nginx's last answer: $(tail -n 1 "$work/logs/access.log")"
echo
echo "== nginx's log: the prefetch, the first get, then the two requests for badge.png"
cat "$work/logs/access.log"
