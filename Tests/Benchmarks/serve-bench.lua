-- wrk script of serve-bench.sh: requests the paths of the file BENCH_PATHS in turn (each
-- thread from the start of its own slice), and prints one line of results for the script to read:
--   RESULT requests=N seconds=S rps=R p50_ms=A p99_ms=B non2xx=C socket_errors=D
local paths = {}
local next_index = 0
local threads = {}
local thread_count = 0

function setup(thread)
  thread:set("offset", thread_count)
  thread_count = thread_count + 1
  table.insert(threads, thread)
end

function init(args)
  for line in io.lines(os.getenv("BENCH_PATHS")) do
    paths[#paths + 1] = line
  end
  -- Each thread takes its own slice of the list (BENCH_THREADS = wrk's -t), so that no path is
  -- asked for twice until a thread has gone through its slice.
  next_index = math.floor(offset * #paths / tonumber(os.getenv("BENCH_THREADS")))
end

function request()
  next_index = next_index % #paths + 1
  return wrk.format("GET", paths[next_index])
end

function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local errors = summary.errors
  io.write(string.format(
    "RESULT requests=%d seconds=%.2f rps=%.1f p50_ms=%.2f p99_ms=%.2f non2xx=%d socket_errors=%d\n",
    summary.requests, seconds, summary.requests / seconds, latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, errors.status, errors.connect + errors.read + errors.write + errors.timeout))
end
