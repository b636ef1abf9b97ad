--[[
  Puts an order taken for cancellation back among the due orders for later: its row is not in the database yet
  (the writer is behind, or the entry waits among the dead letters), and an order that is not written cannot be
  cancelled; its unit stays taken meanwhile.

  Input:
    KEYS[1] being cancelled   seckill:{sN}:orders:cancelling   zset, member <orderId>:<userId>
    KEYS[2] due orders        seckill:{sN}:orders:due

    ARGV[1] member            <orderId>:<userId>
    ARGV[2] delay (ms) before it is due again

  Output:
    1  due again at now + delay
    0  it was no longer being cancelled (another caller settled it); nothing changed
]]
local rcall = redis.call

local cancellingKey = KEYS[1]
local dueKey = KEYS[2]

local member = ARGV[1]
local delay = tonumber(ARGV[2])

if rcall('ZREM', cancellingKey, member) == 0 then
  return 0
end
local time = rcall('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
rcall('ZADD', dueKey, now + delay, member)
return 1
