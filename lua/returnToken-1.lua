--[[
  Puts back a token taken by takeToken-1.lua for a request that was refused for another reason (its buyer was over
  their own limit), so that one buyer hammering away spends only their own tokens, not those of everyone behind
  the same address. A bucket that is gone (expired: full) stays gone; one is never made fuller than full.

  Input:
    KEYS[1] bucket   seckill:rate-limit:{<kind>:<who>}

    ARGV[1] microseconds per token, as given to takeToken-1.lua

  Output:
    1  put back
    0  nothing to put back
]]
local rcall = redis.call

local bucketKey = KEYS[1]

local interval = tonumber(ARGV[1])

local emptyAt = tonumber(rcall('GET', bucketKey))
if not emptyAt then
  return 0
end
rcall('SET', bucketKey, string.format('%d', emptyAt - interval), 'KEEPTTL')
return 1
