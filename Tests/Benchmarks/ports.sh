# Ports on 127.0.0.1 for the benchmark scripts (sourced, not run).
#
#   . Tests/Benchmarks/ports.sh
#   port=$(free_port)      # a port free now, the kernel's pick
#   wait_port "$port"      # returns once something accepts connections on it
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { until python3 -c "import socket; socket.create_connection(('127.0.0.1', $1), 0.2)" 2>/dev/null; do sleep 0.2; done; }
