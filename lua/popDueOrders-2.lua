--[[
  Takes the unpaid orders of one shard that are due for cancellation, atomically moving each from "due" to
  "being cancelled" with a lease, so that one caller cancels it and, should that caller die, another takes it
  up again once the lease has run out: never lost, never cancelled by two at once.
  The clock is the Redis server's (TIME), as for the admission that scheduled the orders.

  Input:
    KEYS[1] due orders        seckill:{sN}:orders:due          zset, member <orderId>:<userId>, score payBefore
    KEYS[2] being cancelled   seckill:{sN}:orders:cancelling   zset, same members, score lease deadline

    ARGV[1] lease (ms)
    ARGV[2] most orders to take

  Output:
    the members taken, each now in "being cancelled" with score now + lease and no longer in "due": first those
    whose lease ran out (a caller died or stalled), then those due (payBefore <= now), oldest first.
    A due member that is being cancelled already is dropped from "due", not taken twice.
]]
local rcall = redis.call

local dueKey = KEYS[1]
local cancellingKey = KEYS[2]

local lease = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])

local time = rcall('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local deadline = now + lease

local taken = {}
local expired = rcall('ZRANGEBYSCORE', cancellingKey, '-inf', now, 'LIMIT', 0, limit)
for _, member in ipairs(expired) do
  rcall('ZADD', cancellingKey, deadline, member)
  taken[#taken + 1] = member
end
if #taken < limit then
  local due = rcall('ZRANGEBYSCORE', dueKey, '-inf', now, 'LIMIT', 0, limit - #taken)
  for _, member in ipairs(due) do
    rcall('ZREM', dueKey, member)
    if rcall('ZADD', cancellingKey, 'NX', deadline, member) == 1 then
      taken[#taken + 1] = member
    end
  end
end
return taken
