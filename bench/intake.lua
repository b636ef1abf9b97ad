-- wrk script for the intake benchmark: POST /api/vouchers/<voucher>/orders, each request from a buyer never seen
-- before (X-User-Id = thread number * 10^10 + request number).
-- Usage: wrk ... -s bench/intake.lua http://127.0.0.1:PORT -- VOUCHER_ID [EXPECTED_STATUS] [xff] [ENDPOINT]
--   EXPECTED_STATUS  the answer every request should get: 202 (default) on a voucher with stock, 409 on a sold-out one
--   xff              send X-Forwarded-For with an address of the buyer's own (10.x.y.z, one per buyer), as a proxy
--                    in front of the service would; the service must trust 127.0.0.1 (seckill.rate-limit.trusted-proxies)
--                    so its per-address limit sees a crowd of addresses rather than the one load generator
--   ENDPOINT         the last part of the path, "orders" by default ("refused": the reference's constant 409)
-- At the end it prints bench_* lines (run.sh reads them): requests, answers that were not the expected status, socket
-- errors, and latency percentiles in microseconds.

local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("thread_number", #threads)
end

function init(args)
  path = "/api/vouchers/" .. args[1] .. "/" .. (args[4] or "orders")
  expected = tonumber(args[2] or "202")
  forwarded = args[3] == "xff"
  sent = 0
  unexpected = 0
end

function request()
  sent = sent + 1
  local buyer = thread_number * 1e10 + sent
  local headers = { ["X-User-Id"] = string.format("%d", buyer) }
  if forwarded then
    headers["X-Forwarded-For"] = string.format("10.%d.%d.%d", thread_number % 256, math.floor(sent / 256) % 256, sent % 256)
  end
  return wrk.format("POST", path, headers)
end

function response(status, headers, body)
  if status ~= expected then
    unexpected = unexpected + 1
  end
end

function done(summary, latency, requests)
  local total_unexpected = 0
  for _, thread in ipairs(threads) do
    total_unexpected = total_unexpected + thread:get("unexpected")
  end
  local errors = summary.errors
  io.write(string.format("bench_requests=%d\n", summary.requests))
  io.write(string.format("bench_unexpected=%d\n", total_unexpected))
  io.write(string.format("bench_socket_errors=%d\n", errors.connect + errors.read + errors.write + errors.timeout))
  io.write(string.format("bench_duration_us=%d\n", summary.duration))
  for _, p in ipairs({ 50, 99, 99.9 }) do
    io.write(string.format("bench_p%s_us=%d\n", string.gsub(tostring(p), "%.", ""), latency:percentile(p)))
  end
end
