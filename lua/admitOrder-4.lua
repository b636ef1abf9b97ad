--[[
  Admits one order for a flash-sale voucher, all or nothing: checks the sale window, the buyer and the stock,
  then takes one unit, records the buyer, appends the order to the shard's stream and schedules its expiry: the
  order is due for cancellation at payBefore = acceptedAt + the payment timeout unless paid by then.
  The clock is the Redis server's (TIME), so every service instance judges the window alike.

  Input:
    KEYS[1] voucher hash    seckill:{sN}:voucher:<id>   fields stock, beginAt, endAt (epoch ms; no endAt = never),
                                                        rebuilding (set while the state is rebuilt)
    KEYS[2] buyers set      seckill:{sN}:buyers:<id>
    KEYS[3] orders stream   seckill:{sN}:orders
    KEYS[4] due orders      seckill:{sN}:orders:due   zset, member <orderId>:<userId>, score payBefore (epoch ms)

    ARGV[1] orderId
    ARGV[2] voucherId
    ARGV[3] userId
    ARGV[4] payment timeout (ms)

  Output:
    0  accepted: stock decremented, buyer added, order appended (fields orderId, voucherId, userId, acceptedAt,
       payBefore) and scheduled in the due orders
    1  voucher not found
    2  sale not started
    3  sale ended
    4  sold out
    5  buyer already ordered this voucher
    6  the voucher's state is being rebuilt (Redis forgot some of it); try again shortly
  Every answer but 0 leaves every key as it was.
]]
local rcall = redis.call

local voucherKey = KEYS[1]
local buyersKey = KEYS[2]
local ordersKey = KEYS[3]
local dueKey = KEYS[4]

local orderId = ARGV[1]
local voucherId = ARGV[2]
local userId = ARGV[3]
local paymentTimeout = tonumber(ARGV[4])

local voucher = rcall('HMGET', voucherKey, 'stock', 'beginAt', 'endAt', 'rebuilding')
if voucher[4] then
  return 6
end
local stock = tonumber(voucher[1])
if not stock then
  return 1
end

local time = rcall('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
if now < tonumber(voucher[2]) then
  return 2
end
local endAt = tonumber(voucher[3])
if endAt and now >= endAt then
  return 3
end

-- The buyer comes before the stock: a buyer who already has a unit hears so, even once the sale sold out.
if rcall('SISMEMBER', buyersKey, userId) == 1 then
  return 5
end
if stock <= 0 then
  return 4
end

rcall('HINCRBY', voucherKey, 'stock', -1)
rcall('SADD', buyersKey, userId)
local payBefore = now + paymentTimeout
rcall('XADD', ordersKey, '*', 'orderId', orderId, 'voucherId', voucherId, 'userId', userId, 'acceptedAt', now,
  'payBefore', payBefore)
rcall('ZADD', dueKey, payBefore, orderId .. ':' .. userId)
return 0
