-- wrk script for the intake benchmark: POST /api/vouchers/<voucher>/orders, each request from a buyer never seen
-- before (X-User-Id = thread number * 10^10 + request number), so every answer should be a 202.
-- Usage: wrk ... -s bench/intake.lua http://127.0.0.1:PORT -- VOUCHER_ID
-- At the end it prints bench_* lines (run.sh reads them): requests, answers that were not 202, socket errors,
-- and latency percentiles in microseconds.

local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("thread_number", #threads)
end

function init(args)
  path = "/api/vouchers/" .. args[1] .. "/orders"
  sent = 0
  not_accepted = 0
end

function request()
  sent = sent + 1
  local buyer = string.format("%d", thread_number * 1e10 + sent)
  return wrk.format("POST", path, { ["X-User-Id"] = buyer })
end

function response(status, headers, body)
  if status ~= 202 then
    not_accepted = not_accepted + 1
  end
end

function done(summary, latency, requests)
  local not_202 = 0
  for _, thread in ipairs(threads) do
    not_202 = not_202 + thread:get("not_accepted")
  end
  local errors = summary.errors
  io.write(string.format("bench_requests=%d\n", summary.requests))
  io.write(string.format("bench_not_202=%d\n", not_202))
  io.write(string.format("bench_socket_errors=%d\n", errors.connect + errors.read + errors.write + errors.timeout))
  io.write(string.format("bench_duration_us=%d\n", summary.duration))
  for _, p in ipairs({ 50, 99, 99.9 }) do
    io.write(string.format("bench_p%s_us=%d\n", string.gsub(tostring(p), "%.", ""), latency:percentile(p)))
  end
end
