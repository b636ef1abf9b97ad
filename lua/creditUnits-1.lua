--[[
  The second step of a transfer (docs/buckets.md): credits the destination bucket with the units a transfer took
  from its source, at most once. The destination keeps, per source shard, the number of the last transfer it
  credited (field from:<sourceShard>); a transfer leaves a source only once the one before is finished, so a
  number not above it was credited already, by whoever completed the transfer first. A transfer of another
  generation (gen) was taken before a rebuild, which counted its units afresh: it is void.

  Input:
    KEYS[1] the destination bucket's hash   seckill:{sN}:voucher:<id>   fields stock, rebuilding, gen,
                                                                        from:<sourceShard>

    ARGV[1] the source bucket's shard
    ARGV[2] the transfer's number (seq)
    ARGV[3] units
    ARGV[4] the transfer's generation (the source's gen when it was taken)
    ARGV[5] voucherId
    ARGV[6] the sale view's channel: the voucher is announced there once its units arrived, so that no instance goes
            on answering SOLD_OUT from memory (io.seckill.order.SaleView)

  Output:
    0  credited: the stock is higher by units
    1  the destination's hash is gone (Redis forgot it; the rebuild voids the transfer): nothing changed
    2  credited before: nothing changed
    3  void: the transfer is of another generation than the destination: nothing changed
    6  the voucher is being rebuilt: nothing changed
]]
local rcall = redis.call

local bucketKey = KEYS[1]
local source = ARGV[1]
local seq = tonumber(ARGV[2])
local units = tonumber(ARGV[3])
local gen = ARGV[4]
local voucherId = ARGV[5]
local channel = ARGV[6]
local creditedField = 'from:' .. source

local bucket = rcall('HMGET', bucketKey, 'stock', 'rebuilding', 'gen', creditedField)
if bucket[2] then
  return 6
end
if not bucket[1] then
  return 1
end
if (bucket[3] or '0') ~= gen then
  return 3
end
if (tonumber(bucket[4]) or 0) >= seq then
  return 2
end
rcall('HINCRBY', bucketKey, 'stock', units)
rcall('HSET', bucketKey, creditedField, seq)
rcall('PUBLISH', channel, voucherId)
return 0
