--[[
  Puts the unit of a cancelled order back on sale, exactly once: the order's member in "being cancelled" is the
  token. Whoever removes it returns the unit (stock + 1, buyer removed, so anyone, the same buyer included, can
  buy it again); a repeat, by a caller whose lease ran out or by a retry after a crash, finds no token and
  changes nothing. Called only once the order's row is CANCELLED in the database.
  While the voucher is being rebuilt (its hash holds a rebuilding mark) the token stays where it is: the rebuild
  counts a cancelled order whose token is still there as holding its unit, and the state it writes would swallow
  a unit returned in between, or count it twice.

  Input:
    KEYS[1] being cancelled   seckill:{sN}:orders:cancelling   zset, member <orderId>:<userId>
    KEYS[2] voucher hash      seckill:{sN}:voucher:<id>
    KEYS[3] buyers set        seckill:{sN}:buyers:<id>

    ARGV[1] member            <orderId>:<userId>
    ARGV[2] userId
    ARGV[3] voucherId
    ARGV[4] the sale view's channel: the voucher is announced there once its unit is back, so that no instance
            goes on answering SOLD_OUT from memory (io.seckill.order.SaleView)

  Output:
    1  the unit is back on sale
    0  no token: returned already; nothing changed
    2  the voucher is being rebuilt: try again once it is; nothing changed
]]
local rcall = redis.call

local cancellingKey = KEYS[1]
local voucherKey = KEYS[2]
local buyersKey = KEYS[3]

local member = ARGV[1]
local userId = ARGV[2]
local voucherId = ARGV[3]
local channel = ARGV[4]

if rcall('HEXISTS', voucherKey, 'rebuilding') == 1 then
  return 2
end
if rcall('ZREM', cancellingKey, member) == 0 then
  return 0
end
-- A voucher whose state is gone (a wiped Redis) is rebuilt from the database, where this order no longer counts:
-- a stock field made up here would resurrect a half voucher.
if rcall('EXISTS', voucherKey) == 1 then
  rcall('HINCRBY', voucherKey, 'stock', 1)
end
rcall('SREM', buyersKey, userId)
rcall('PUBLISH', channel, voucherId)
return 1
