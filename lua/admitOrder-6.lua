--[[
  Admits one order for a flash-sale voucher, all or nothing: takes a token from the buyer's and from the client
  address's rate-limit bucket, checks the sale window, the buyer and the stock, then takes one unit, records the
  buyer, appends the order to the shard's stream and schedules its expiry: the order is due for cancellation at
  payBefore = acceptedAt + the payment timeout unless paid by then. One script, so an order request costs one round
  trip to Redis, rate limits included.
  The clock is the Redis server's (TIME), so every service instance judges the window and the buckets alike.

  A bucket is GCRA's (the generic cell rate algorithm's) theoretical arrival time: one number, the time (µs since
  the epoch) at which the bucket is empty again, changed in one step; a bucket that holds no key is full. A bucket
  lives on the voucher's shard, so with several shards each shard keeps its own buckets for a buyer and an address.

  Input:
    KEYS[1] voucher hash     seckill:{sN}:voucher:<id>   fields stock, beginAt, endAt (epoch ms; no endAt = never),
                                                         rebuilding (set while the state is rebuilt), buckets
                                                         (the voucher's stock is split over that many buckets, on
                                                         as many shards; none = 1): the buyer's home bucket's hash
    KEYS[2] buyers set       seckill:{sN}:buyers:<id>
    KEYS[3] orders stream    seckill:{sN}:orders
    KEYS[4] due orders       seckill:{sN}:orders:due     zset, member <orderId>:<userId>, score payBefore (epoch ms)
    KEYS[5] buyer's bucket   seckill:{sN}:rate-limit:buyer:<userId>
    KEYS[6] address's bucket seckill:{sN}:rate-limit:address:<client address>

    ARGV[1] orderId
    ARGV[2] voucherId
    ARGV[3] userId
    ARGV[4] payment timeout (ms)
    ARGV[5] the buyer's limit: microseconds per token (1,000,000 / rate), a whole number; 0: no limit
    ARGV[6] the buyer's burst: tokens a full bucket holds
    ARGV[7] the address's limit: microseconds per token; 0: no limit
    ARGV[8] the address's burst
    ARGV[9] milliseconds a bucket's key outlives the moment the bucket is full again
    ARGV[10] the number of stock buckets the caller takes the voucher to have, KEYS[1] being the buyer's home bucket
             among them (none: 1)

  Output: {code}; for a rate-limit refusal {code, microseconds until the bucket holds a token again (≥ 1)}; for
  "sale not started" {2, beginAt, endAt or -1 for never, the server's time (epoch ms)}, so that an instance can
  answer the flood before the start from memory until then (io.seckill.order.SaleView)
    0  accepted: stock decremented, buyer added, order appended (fields orderId, voucherId, userId, acceptedAt,
       payBefore) and scheduled in the due orders
    1  voucher not found
    2  sale not started
    3  sale ended
    4  sold out (of a voucher in several buckets: this bucket is empty; units may move here from another)
    5  buyer already ordered this voucher
    6  the voucher's state is being rebuilt (Redis forgot some of it); try again shortly
    7  too many order requests from this buyer
    8  too many order requests from this client address
    9  the voucher has another number of stock buckets than ARGV[10]: {9, buckets}; try again on the buyer's home
       bucket among those (docs/buckets.md)
  7, 8 and 9 leave every key as it was: a refused request costs no token. Every other answer has taken a token from
  each bucket whose limit is on (a request for a sold-out voucher counts against the limits too); 1 to 6 change
  nothing else.
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
local keepMillis = tonumber(ARGV[9])

local time = rcall('TIME')
local nowMicros = tonumber(time[1]) * 1000000 + tonumber(time[2])

-- A bucket that gives a token now: the time it will be empty again, to be stored once both buckets gave one.
-- A bucket that does not: nil and the microseconds until it will. A limit that is off: nil, nil.
local function tryToken(bucketKey, interval, burst)
  if interval == 0 then
    return nil, nil
  end
  local emptyAt = tonumber(rcall('GET', bucketKey)) or nowMicros
  if emptyAt < nowMicros then
    emptyAt = nowMicros
  end
  local nextEmptyAt = emptyAt + interval
  local wait = nextEmptyAt - burst * interval - nowMicros
  if wait > 0 then
    return nil, wait
  end
  return nextEmptyAt, nil
end

local function takeToken(bucketKey, emptyAt)
  if emptyAt then
    -- %d: a Lua number handed to Redis as is would be written with 14 significant digits, losing the microseconds.
    rcall('SET', bucketKey, string.format('%d', emptyAt), 'PX', math.ceil((emptyAt - nowMicros) / 1000) + keepMillis)
  end
end

local voucher = rcall('HMGET', voucherKey, 'stock', 'beginAt', 'endAt', 'rebuilding', 'buckets')
local buckets = tonumber(voucher[5]) or 1
if voucher[1] and buckets ~= (tonumber(ARGV[10]) or 1) then
  return {9, buckets}
end

-- The buyer's verdict first: a buyer over their own limit hears so, and spends none of the address's tokens (a
-- NAT, an office behind one address), so one buyer hammering away cannot lock out everyone behind it.
local buyerEmptyAt, buyerWait = tryToken(KEYS[5], tonumber(ARGV[5]), tonumber(ARGV[6]))
if buyerWait then
  return {7, buyerWait}
end
local addressEmptyAt, addressWait = tryToken(KEYS[6], tonumber(ARGV[7]), tonumber(ARGV[8]))
if addressWait then
  return {8, addressWait}
end
takeToken(KEYS[5], buyerEmptyAt)
takeToken(KEYS[6], addressEmptyAt)

if voucher[4] then
  return {6}
end
local stock = tonumber(voucher[1])
if not stock then
  return {1}
end

local now = math.floor(nowMicros / 1000)
local endAt = tonumber(voucher[3])
if now < tonumber(voucher[2]) then
  return {2, tonumber(voucher[2]), endAt or -1, now}
end
if endAt and now >= endAt then
  return {3}
end

-- The buyer comes before the stock: a buyer who already has a unit hears so, even once the sale sold out.
if rcall('SISMEMBER', buyersKey, userId) == 1 then
  return {5}
end
if stock <= 0 then
  return {4}
end

rcall('HINCRBY', voucherKey, 'stock', -1)
rcall('SADD', buyersKey, userId)
local payBefore = now + paymentTimeout
rcall('XADD', ordersKey, '*', 'orderId', orderId, 'voucherId', voucherId, 'userId', userId, 'acceptedAt', now,
  'payBefore', payBefore)
rcall('ZADD', dueKey, payBefore, orderId .. ':' .. userId)
return {0}
