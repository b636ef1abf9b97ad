--[[
  Acknowledges stream entries whose orders are in the database and deletes them, in one step, so the stream
  holds only what is still unread or pending and stays bounded by the backlog.

  Input:
    KEYS[1] orders stream   seckill:{sN}:orders

    ARGV[1]  consumer group
    ARGV[2…] entry ids

  Output:
    the number of entries that were still pending and are now acknowledged
]]
local rcall = redis.call

local ordersKey = KEYS[1]
local group = ARGV[1]

local ids = {}
for i = 2, #ARGV do
  ids[#ids + 1] = ARGV[i]
end

local acked = rcall('XACK', ordersKey, group, unpack(ids))
rcall('XDEL', ordersKey, unpack(ids))
return acked
