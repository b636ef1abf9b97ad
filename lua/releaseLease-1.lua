--[[
  Gives up an instance's lease on its consumer name, if the lease is still its own: a lease another instance
  holds by now is left alone.

  Input:
    KEYS[1] lease key   seckill:consumers:<group>:<consumer name>

    ARGV[1] the instance's token

  Output:
    1 released
    0 not this instance's (it had lapsed, or another instance holds it): nothing changed
]]
local rcall = redis.call

local leaseKey = KEYS[1]

local token = ARGV[1]

if rcall('GET', leaseKey) == token then
  rcall('DEL', leaseKey)
  return 1
end
return 0
