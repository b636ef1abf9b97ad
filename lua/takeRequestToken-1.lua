--[[
  Takes one token from a client address's request budget (every API route but the order POST, whose buckets
  admitOrder-6.lua takes in its own step). The bucket is the same GCRA theoretical arrival time as admitOrder-6.lua's:
  the time (µs since the epoch, by the Redis server's clock, TIME) at which the bucket is empty again; a bucket that
  holds no key is full.

  Input:
    KEYS[1] the address's bucket  seckill:rate-limit:requests:<client address>

    ARGV[1] microseconds per token (1,000,000 / rate), a whole number, above 0
    ARGV[2] burst: tokens a full bucket holds
    ARGV[3] milliseconds the key outlives the moment the bucket is full again

  Output:
    0    a token was taken
    > 0  none: microseconds until the bucket holds one again; the key is unchanged
]]
local rcall = redis.call

local bucketKey = KEYS[1]
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local keepMillis = tonumber(ARGV[3])

local time = rcall('TIME')
local nowMicros = tonumber(time[1]) * 1000000 + tonumber(time[2])

local emptyAt = tonumber(rcall('GET', bucketKey)) or nowMicros
if emptyAt < nowMicros then
  emptyAt = nowMicros
end
local nextEmptyAt = emptyAt + interval
local wait = nextEmptyAt - burst * interval - nowMicros
if wait > 0 then
  return wait
end
-- %d: a Lua number handed to Redis as is would be written with 14 significant digits, losing the microseconds.
rcall('SET', bucketKey, string.format('%d', nextEmptyAt), 'PX', math.ceil((nextEmptyAt - nowMicros) / 1000) + keepMillis)
return 0
