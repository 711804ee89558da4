#!/bin/sh
# Installs WebImage into a temporary prefix and checks it the way a user would:
#  - the installed webimage finds its plugins with no flag;
#  - the third-party examples build with one cc line each from `pkg-config --cflags webimage-plugin`
#    and, copied into `pkg-config --variable=plugindir webimage-plugin`, work: the PNM coder
#    decodes and passes `webimage plugins conform`, the effects transformer runs in `--transform`;
#  - the prefix still works after it has been moved (relocatable RUNPATHs);
#  - the installed webimage links no C image library, and `bench decode --reference` runs the
#    installed webimage-bench (which does);
#  - the installed webimage-plugin-worker serves isolated plugins: the third-party PNM coder
#    converts with `--isolation all`, and a crash of an untrusted plugin is one error line;
#  - `webimage sign` and `webimage serve` run the installed webimage-serve: the signature is
#    HMAC-SHA256's, and the server answers /health from the moved prefix.
# Exits non-zero with a message on the first failure.
set -eu
repository=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check-install: FAILED: $*" >&2; exit 1; }

make -C "$repository" --no-print-directory install PREFIX="$work/prefix" >"$work/install.log" 2>&1 \
  || { cat "$work/install.log" >&2; fail "make install"; }
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
unset WEBIMAGE_PLUGIN_PATH

cd "$repository/Examples/ThirdPartyCoder"
cc -std=c11 -O2 -Wall -Wextra -Werror -shared -fPIC $(pkg-config --cflags webimage-plugin) \
  -o "$work/libwebimage-pnm.so" pnm_coder.c pnm_header.c pnm_raster.c pnm_encode.c || fail "building the example"
plugindir=$(pkg-config --variable=plugindir webimage-plugin)
[ "$(cd "$plugindir" && pwd -P)" = "$(cd "$work/prefix/lib/webimage/plugins" && pwd -P)" ] || fail "plugindir is $plugindir"
cp "$work/libwebimage-pnm.so" pnm.json "$plugindir/"
cd "$repository/Examples/ThirdPartyTransformer"
cc -std=c11 -O2 -Wall -Wextra -Werror -shared -fPIC $(pkg-config --cflags webimage-plugin) \
  -o "$work/libwebimage-effects.so" effects_plugin.c effects_parameters.c effects_pixels.c \
  || fail "building the transformer example"
cp "$work/libwebimage-effects.so" effects.json "$plugindir/"

mv "$work/prefix" "$work/moved"
webimage="$work/moved/bin/webimage"
"$webimage" plugins verify >"$work/verify.txt" 2>&1 || { cat "$work/verify.txt" >&2; fail "plugins verify"; }
for plugin in png jpeg pnm effects disk memory redis curl; do
  grep -q "$plugin" "$work/verify.txt" || fail "plugins verify does not mention $plugin"
done

printf 'P6\n2 1\n255\n\377\000\000\000\000\377' >"$work/red-blue.ppm"
"$webimage" convert "$work/red-blue.ppm" "$work/red-blue.png" >/dev/null || fail "convert ppm -> png"
"$webimage" info "$work/red-blue.png" --json | grep -q '"width" *: *2' || fail "info on the converted png"
"$webimage" plugins conform pnm "$work/red-blue.ppm" >"$work/conform.txt" 2>&1 \
  || { cat "$work/conform.txt" >&2; fail "plugins conform pnm"; }
"$webimage" convert "$repository/Tests/Fixtures/jpeg/orientation-6.jpg" "$work/upright.png" --thumbnail 20x20 >/dev/null \
  || fail "convert jpeg -> png thumbnail"
"$webimage" info "$work/upright.png" --json | grep -q '"height" *: *20' || fail "thumbnail size"
"$webimage" convert "$work/red-blue.ppm" "$work/sepia.png" --transform sepia:percent=80 --json >"$work/sepia.json" \
  || fail "convert --transform sepia:percent=80 through the example transformer"
grep -q '"transformer_key" *: *"effects.sepia(80)"' "$work/sepia.json" || fail "the example transformer's key"
mkdir "$work/fetched"
"$webimage" fetch --allow-file "file://$work/red-blue.ppm" -o "$work/fetched" >/dev/null || fail "fetch through the curl plugin"
cmp -s "$work/red-blue.ppm" "$work/fetched/red-blue.ppm" || fail "fetched bytes differ"
if ldd "$webimage" "$webimage-bench" "$webimage-serve" "$work/moved/lib/webimage/plugins/"*.so | grep -q "not found"; then
  fail "unresolved libraries"
fi
image_libraries=$(ldd "$webimage" | awk '{ print $1 }' | grep -E '^lib(png16|jpeg|gif|webp|heif)' || true)
[ -z "$image_libraries" ] || fail "webimage links C image libraries: $(echo $image_libraries)"
"$webimage" bench decode "$repository/Tests/Fixtures/png/rgb8.png" --iterations 2 --reference --json \
  >"$work/bench.json" 2>&1 || { cat "$work/bench.json" >&2; fail "bench decode --reference"; }
if ! grep -q '"reference_min_ms"' "$work/bench.json"; then
  cat "$work/bench.json" >&2
  fail "bench decode --reference has no reference times"
fi
[ -x "$work/moved/bin/webimage-plugin-worker" ] || fail "webimage-plugin-worker is not installed"
"$webimage" convert "$work/red-blue.ppm" "$work/isolated.png" --isolation all >/dev/null 2>"$work/isolated.txt" \
  || { cat "$work/isolated.txt" >&2; fail "convert through the installed worker (--isolation all)"; }
cmp -s "$work/red-blue.png" "$work/isolated.png" || fail "the isolated conversion differs from the in-process one"
mkdir "$work/untrusted"
cc -std=c11 -O1 -shared -fPIC -I "$work/moved/include/webimage" -DHOSTILE_NAME=crash_decode -DHOSTILE_IN_DECODE \
  -o "$work/untrusted/libcrash_decode.so" "$repository/Tests/Fixtures/HostilePlugins/hostile.c" \
  || fail "building the hostile plugin"
printf '%s\n' '{ "name": "crash_decode", "version": "1.0.0", "abi_version": 1, "library": "libcrash_decode.so",' \
  '  "coder": { "formats": [{ "name": "hostile", "mime_types": ["image/x-hostile"], "extensions": ["hostile"],' \
  '                           "signatures": ["484f5354"], "capabilities": ["decode", "encode"] }] } }' \
  >"$work/untrusted/crash_decode.json"
printf 'HOSTX' >"$work/trigger.hostile"
if "$webimage" convert "$work/trigger.hostile" "$work/never.png" --plugin-path "$work/untrusted" 2>"$work/crash.txt"; then
  fail "the crashing plugin's conversion succeeded"
fi
[ "$(cat "$work/crash.txt")" = "error: plugin 'crash_decode' crashed in decode (SIGSEGV)" ] \
  || { cat "$work/crash.txt" >&2; fail "the crash of an untrusted plugin is not one error line"; }
[ -x "$work/moved/bin/webimage-serve" ] || fail "webimage-serve is not installed"
path=/rs:fit:8:8/plain/http://127.0.0.1/a.jpg
expected=$(python3 -c 'import base64, hashlib, hmac, sys
digest = hmac.new(bytes.fromhex("6b6579"), bytes.fromhex("73616c74") + sys.argv[1].encode(), hashlib.sha256).digest()
print("/" + base64.urlsafe_b64encode(digest).decode().rstrip("=") + sys.argv[1])' "$path")
[ "$("$webimage" sign "$path" --key 6b6579 --salt 73616c74)" = "$expected" ] || fail "webimage sign through webimage-serve"
"$webimage" serve --allow-unsigned --listen 127.0.0.1:0 --cache-dir "$work/serve-cache" >"$work/serve.txt" 2>&1 &
serve_pid=$!
address=""
for _ in $(seq 100); do
  address=$(sed -n 's|^listening on http://||p' "$work/serve.txt")
  [ -n "$address" ] && break
  sleep 0.1
done
[ -n "$address" ] || { kill "$serve_pid" 2>/dev/null; cat "$work/serve.txt" >&2; fail "webimage serve did not listen"; }
health=$(curl -s --max-time 10 "http://$address/health" || true)
kill -TERM "$serve_pid"
wait "$serve_pid" || fail "webimage serve did not exit 0 after SIGTERM"
[ "$health" = "ok" ] || { cat "$work/serve.txt" >&2; fail "webimage serve's /health answered '$health'"; }
echo "check-install: ok (installed, relocated, example plugins built with pkg-config and used, webimage free of C image libraries, reference bench from the prefix, isolated plugins served by the installed worker, sign and serve through webimage-serve)"
