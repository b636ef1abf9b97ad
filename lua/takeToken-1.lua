--[[
  Takes one token from a rate-limit bucket, or says how long until one is back. The bucket is GCRA's (the generic
  cell rate algorithm's) theoretical arrival time: one number per bucket, changed in one step, so a check is one
  round trip with no compare-and-swap retry however many instances draw from the bucket. A bucket that holds no
  key is full. The clock is the Redis server's (TIME), so every instance judges alike.

  Input:
    KEYS[1] bucket   seckill:rate-limit:{<kind>:<who>}   the time (µs since the epoch) at which it is empty again

    ARGV[1] microseconds per token (1,000,000 / rate), a whole number ≥ 1
    ARGV[2] burst: tokens a full bucket holds
    ARGV[3] milliseconds the key outlives the moment the bucket is full again

  Output:
    0  a token was taken
    n  refused, nothing changed: microseconds until a token is back (n ≥ 1)
]]
local rcall = redis.call

local bucketKey = KEYS[1]

local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local keepMillis = tonumber(ARGV[3])

local time = rcall('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])

local emptyAt = tonumber(rcall('GET', bucketKey)) or now
if emptyAt < now then
  emptyAt = now
end
local next = emptyAt + interval
local wait = next - burst * interval - now
if wait > 0 then
  return wait
end
-- %d: a Lua number handed to Redis as is would be written with 14 significant digits, losing the microseconds.
rcall('SET', bucketKey, string.format('%d', next), 'PX', math.ceil((next - now) / 1000) + keepMillis)
return 0
