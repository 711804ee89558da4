# What the benchmarks that compare `webimage serve` installs side by side share (sourced, not
# run; serve-hits-bench.sh and serve-misses-bench.sh). Sets `work`, a fresh folder under /tmp
# removed on exit with whatever server and nginx are still running, and sources ports.sh.
#
#   bench_name=NAME; . Tests/Benchmarks/serve-installs.sh
#   sign PATH...                 # prints each path with its signature in front (the key below)
#   start_serve PREFIX [CACHE]   # the install's server on a free port, from an empty cache;
#                                # sets server_pid and base (http://127.0.0.1:PORT)
#   stop_serve
key=736563726574
salt=68656c6c6f
work=$(mktemp -d "/tmp/webimage-${bench_name:?}.XXXXXX")
chmod 755 "$work" # nginx's workers run as nobody
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill -TERM "$server_pid" 2>/dev/null || true
  [ -f "$work/nginx.pid" ] && kill -TERM "$(cat "$work/nginx.pid")" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM
. "$(dirname "$0")/ports.sh"

sign() {
  python3 - "$key" "$salt" "$@" <<'PY'
import base64, hashlib, hmac, sys
key, salt = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2])
for path in sys.argv[3:]:
    digest = hmac.new(key, salt + path.encode(), hashlib.sha256).digest()
    print("/" + base64.urlsafe_b64encode(digest).decode().rstrip("=") + path)
PY
}

start_serve() {
  port=$(free_port)
  rm -rf "$work/cache"
  "$1/bin/webimage" serve --listen "127.0.0.1:$port" --key "$key" --salt "$salt" --allow-private-sources \
    --cache-dir "$work/cache" >"$work/serve.log" 2>&1 &
  server_pid=$!
  wait_port "$port"
  base="http://127.0.0.1:$port"
}

stop_serve() {
  kill -TERM "$server_pid"
  wait "$server_pid" || true
  server_pid=""
}
