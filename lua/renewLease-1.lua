--[[
  Renews an instance's lease on its consumer name, if the lease is still its own. A lease that lapsed meanwhile
  (Redis unreachable for longer than the ttl, or restarted without its data) is taken again, as no other instance
  holds the name at this moment; one another instance took is left alone.

  Input:
    KEYS[1] lease key   seckill:consumers:<group>:<consumer name>

    ARGV[1] the instance's token
    ARGV[2] ttl in milliseconds

  Output:
    1 renewed
    2 taken again: it had lapsed
    0 held by another instance (nothing changed)
]]
local rcall = redis.call

local leaseKey = KEYS[1]

local token = ARGV[1]
local ttlMillis = ARGV[2]

local holder = rcall('GET', leaseKey)
if holder == token then
  rcall('PEXPIRE', leaseKey, ttlMillis)
  return 1
end
if not holder then
  rcall('SET', leaseKey, token, 'PX', ttlMillis)
  return 2
end
return 0
