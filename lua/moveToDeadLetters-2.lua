--[[
  Moves one pending entry from the orders stream to the dead letters and acknowledges it, in one step: no crash
  can leave it in both places or in neither. Only the consumer that holds the entry may move it, so an entry
  another consumer claimed meanwhile (and may be writing) is left alone, and two instances cannot dead-letter
  it twice.

  Input:
    KEYS[1] orders stream         seckill:{sN}:orders
    KEYS[2] dead-letter stream    seckill:{sN}:orders:dead

    ARGV[1] consumer group
    ARGV[2] consumer name (the one that must hold the entry)
    ARGV[3] entry id
    ARGV[4] reason

  Output:
    the dead letter's id, or false when the entry was not pending for this consumer (nothing changed)
  The dead letter carries the entry's fields plus sourceId, reason, deliveries and failedAt (epoch ms).
]]
local rcall = redis.call

local ordersKey = KEYS[1]
local deadKey = KEYS[2]

local group = ARGV[1]
local consumer = ARGV[2]
local entryId = ARGV[3]
local reason = ARGV[4]

-- XPENDING entry: { id, owner, idle ms, deliveries }
local pending = rcall('XPENDING', ordersKey, group, entryId, entryId, 1)[1]
if not pending or pending[2] ~= consumer then
  return false
end

local fields = {}
local entry = rcall('XRANGE', ordersKey, entryId, entryId)[1]
if entry then
  fields = entry[2]
end

local time = rcall('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
fields[#fields + 1] = 'sourceId'
fields[#fields + 1] = entryId
fields[#fields + 1] = 'reason'
fields[#fields + 1] = reason
fields[#fields + 1] = 'deliveries'
fields[#fields + 1] = pending[4]
fields[#fields + 1] = 'failedAt'
fields[#fields + 1] = now

local deadId = rcall('XADD', deadKey, '*', unpack(fields))
rcall('XACK', ordersKey, group, entryId)
rcall('XDEL', ordersKey, entryId)
return deadId
