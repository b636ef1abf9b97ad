--[[
  Puts one dead letter back on the orders stream as a new entry with the order's original fields and removes
  it from the dead letters, in one step, so a replay can neither lose the order nor leave it in both places.

  Input:
    KEYS[1] dead-letter stream   seckill:{sN}:orders:dead
    KEYS[2] orders stream        seckill:{sN}:orders

    ARGV[1] dead letter id

  Output:
    the new entry's id on the orders stream, or false when there is no such dead letter
]]
local rcall = redis.call

local deadKey = KEYS[1]
local ordersKey = KEYS[2]

local deadId = ARGV[1]

local entry = rcall('XRANGE', deadKey, deadId, deadId)[1]
if not entry then
  return false
end

-- Keep the order's own fields; the failure's bookkeeping stays behind.
local bookkeeping = { sourceId = true, reason = true, deliveries = true, failedAt = true }
local fields = {}
local raw = entry[2]
for i = 1, #raw, 2 do
  if not bookkeeping[raw[i]] then
    fields[#fields + 1] = raw[i]
    fields[#fields + 1] = raw[i + 1]
  end
end
if #fields == 0 then
  fields = { 'replayOf', deadId }
end

local newId = rcall('XADD', ordersKey, '*', unpack(fields))
rcall('XDEL', deadKey, deadId)
return newId
