# A local nginx serving WORK/www on 127.0.0.1, for the benchmark scripts and the manager demo
# (sourced, not run). It uses WORK for everything it writes: nginx.conf, nginx.pid, logs/,
# tmp/ (the temporary files nginx insists on creating).
#
#   . Tests/Benchmarks/nginx-origin.sh
#   start_nginx_origin WORK PORT WORKERS LOG [SERVER_LINES]
#
# WORKERS: worker processes (1: no master process, so the pid is the one worker's); LOG: `log`
# writes WORK/logs/access.log with one line per request (`URI STATUS BYTES`), `nolog` none;
# SERVER_LINES: more directives for the server block (other listens, TLS, rewrites).
# Sets nginx_pid (the process to stop, or whose CPU time to count) and returns once PORT
# accepts connections; after 10 seconds it prints the error log and fails.
start_nginx_origin() {
  origin_work=$1
  origin_port=$2
  origin_workers=$3
  case $4 in
    log) origin_log="log_format requests '\$request_uri \$status \$body_bytes_sent';
    access_log $origin_work/logs/access.log requests;" ;;
    nolog) origin_log="access_log off;" ;;
    *) echo "start_nginx_origin: LOG is log or nolog, not '$4'" >&2; return 1 ;;
  esac
  origin_master=on
  [ "$origin_workers" -eq 1 ] && origin_master=off
  mkdir -p "$origin_work/www" "$origin_work/logs" "$origin_work/tmp"
  cat >"$origin_work/nginx.conf" <<CONF
daemon off;
master_process $origin_master;
worker_processes $origin_workers;
pid $origin_work/nginx.pid;
error_log $origin_work/logs/error.log warn;
events { worker_connections 4096; }
http {
    $origin_log
    client_body_temp_path $origin_work/tmp/body;
    proxy_temp_path $origin_work/tmp/proxy;
    fastcgi_temp_path $origin_work/tmp/fastcgi;
    uwsgi_temp_path $origin_work/tmp/uwsgi;
    scgi_temp_path $origin_work/tmp/scgi;
    types { image/jpeg jpg; image/png png; image/gif gif; image/webp webp; }
    default_type application/octet-stream;
    sendfile on;
    keepalive_requests 1000000;
    server {
        listen 127.0.0.1:$origin_port;
        root $origin_work/www;
        ${5:-}
    }
}
CONF
  /usr/sbin/nginx -p "$origin_work" -c "$origin_work/nginx.conf" -e "$origin_work/logs/error.log" &
  nginx_pid=$!
  origin_tries=0
  until python3 -c "import socket; socket.create_connection(('127.0.0.1', $origin_port), 0.2)" 2>/dev/null; do
    origin_tries=$((origin_tries + 1))
    if [ $origin_tries -gt 100 ] || ! kill -0 "$nginx_pid" 2>/dev/null; then
      echo "nginx did not start:" >&2
      cat "$origin_work/logs/error.log" >&2
      return 1
    fi
    sleep 0.1
  done
}
