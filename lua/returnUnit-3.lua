--[[
  Puts the unit of a cancelled order back on sale, exactly once: the order's member in "being cancelled" is the
  token. Whoever removes it returns the unit (stock + 1, buyer removed, so anyone, the same buyer included, can
  buy it again); a repeat, by a caller whose lease ran out or by a retry after a crash, finds no token and
  changes nothing. Called only once the order's row is CANCELLED in the database.

  Input:
    KEYS[1] being cancelled   seckill:{sN}:orders:cancelling   zset, member <orderId>:<userId>
    KEYS[2] voucher hash      seckill:{sN}:voucher:<id>
    KEYS[3] buyers set        seckill:{sN}:buyers:<id>

    ARGV[1] member            <orderId>:<userId>
    ARGV[2] userId

  Output:
    1  the unit is back on sale
    0  no token: returned already; nothing changed
]]
local rcall = redis.call

local cancellingKey = KEYS[1]
local voucherKey = KEYS[2]
local buyersKey = KEYS[3]

local member = ARGV[1]
local userId = ARGV[2]

if rcall('ZREM', cancellingKey, member) == 0 then
  return 0
end
-- A voucher whose state is gone (a wiped Redis) is rebuilt from the database, where this order no longer counts:
-- a stock field made up here would resurrect a half voucher.
if rcall('EXISTS', voucherKey) == 1 then
  rcall('HINCRBY', voucherKey, 'stock', 1)
end
rcall('SREM', buyersKey, userId)
return 1
