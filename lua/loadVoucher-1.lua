--[[
  Puts a voucher's sale state into Redis unless it is there already, so that a new voucher and a voucher
  rebuilt from the database at start-up go through one path, and two instances restoring at once cannot
  overwrite a stock that buyers are already taking from.

  A voucher of several stock buckets (docs/buckets.md) is loaded one bucket at a time, each hash holding its
  bucket's units and the number of buckets.

  Input:
    KEYS[1] voucher hash   seckill:{sN}:voucher:<id>   (of one bucket)

    ARGV[1] stock (remaining units)
    ARGV[2] beginAt (epoch ms)
    ARGV[3] endAt (epoch ms), or '' for a sale that never ends
    ARGV[4] the voucher's number of stock buckets (none: 1)

  Output:
    1  loaded
    0  the hash existed; nothing changed
]]
local rcall = redis.call

local voucherKey = KEYS[1]

local stock = ARGV[1]
local beginAt = ARGV[2]
local endAt = ARGV[3]

if rcall('EXISTS', voucherKey) == 1 then
  return 0
end
if endAt == '' then
  rcall('HSET', voucherKey, 'stock', stock, 'beginAt', beginAt)
else
  rcall('HSET', voucherKey, 'stock', stock, 'beginAt', beginAt, 'endAt', endAt)
end
if (tonumber(ARGV[4]) or 1) > 1 then
  rcall('HSET', voucherKey, 'buckets', ARGV[4])
end
return 1
