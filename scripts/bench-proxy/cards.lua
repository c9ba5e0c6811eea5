-- wrk load script for scripts/bench-proxy.sh: every request asks for a random card from a list of ids
-- drawn from the snapshot, the same way for nginx and for the proxy, so the two runs differ only in
-- the server.
--
--   wrk -t2 -c50 -d20s --latency -s cards.lua http://127.0.0.1:PORT -- <ids file> [<key file>] [<range>]
--
-- The bearer key is read from a file, not passed on the command line, so it never shows in `ps`.
-- No response() callback on purpose: defining one makes wrk hand every response to Lua and slows the
-- load generator, which shares the 2 cores with the server. Status errors come from wrk's own count.

local ids = {}
local range = "30d"
sent = 0 -- global: read per thread in done() through thread:get("sent")
thread_no = 0 -- global: set per thread by setup() before init() runs

local function read_lines(path)
  local out = {}
  for line in io.lines(path) do
    if line ~= "" then out[#out + 1] = line end
  end
  return out
end

function init(args)
  ids = read_lines(args[1])
  if #ids == 0 then error("no card ids in " .. tostring(args[1])) end
  if args[2] ~= nil and args[2] ~= "" then
    local key = read_lines(args[2])[1]
    wrk.headers["Authorization"] = "Bearer " .. key
  end
  if args[3] ~= nil and args[3] ~= "" then range = args[3] end
  wrk.headers["Accept-Encoding"] = "gzip"
  -- Each thread has its own Lua state; seed them differently so they do not walk the same ids.
  math.randomseed(os.time() * 100 + (thread_no or 0))
end

function request()
  sent = sent + 1
  return wrk.format("GET", "/v1/cards/" .. ids[math.random(#ids)] .. "?range=" .. range)
end

local threads = {}

function setup(thread)
  threads[#threads + 1] = thread
  thread:set("thread_no", #threads)
end

-- One machine-readable line for the shell script (latency in microseconds). `sent` counts requests
-- handed to a socket: the ones still in flight when wrk stops are in `sent` but not in `requests`,
-- so the server may have answered (and audited) up to sent - requests more than wrk saw.
function done(summary, latency, requests)
  local total_sent = 0
  for _, t in ipairs(threads) do total_sent = total_sent + (t:get("sent") or 0) end
  local e = summary.errors
  io.write(string.format(
    "BENCH_RESULT requests=%d sent=%d duration_us=%d bytes=%d p50_us=%d p90_us=%d p99_us=%d max_us=%d "
      .. "mean_us=%.1f non2xx=%d connect_err=%d read_err=%d write_err=%d timeout_err=%d\n",
    summary.requests, total_sent, summary.duration, summary.bytes,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    latency.mean, e.status, e.connect, e.read, e.write, e.timeout))
end
