--[[
  The last step of a transfer (docs/buckets.md): once the destination is credited, the source forgets the record,
  and another transfer may leave it. Only the record of this transfer (its number and generation): a repeat, by
  whoever completed it too, changes nothing.

  Input:
    KEYS[1] the source bucket's hash   seckill:{sN}:voucher:<id>   fields gen, transferSeq, transferTo, transferUnits
    KEYS[2] the source shard's transfers   seckill:{sN}:transfers   zset, member <voucherId>

    ARGV[1] the transfer's number (seq)
    ARGV[2] the transfer's generation
    ARGV[3] voucherId

  Output:
    1  finished: the record is gone
    0  no such record (finished before, or voided by a rebuild): nothing changed but the transfers set's member
]]
local rcall = redis.call

local bucketKey = KEYS[1]
local transfersKey = KEYS[2]
local seq = ARGV[1]
local gen = ARGV[2]
local voucherId = ARGV[3]

local bucket = rcall('HMGET', bucketKey, 'gen', 'transferSeq', 'transferTo')
if not bucket[3] or (bucket[1] or '0') ~= gen or bucket[2] ~= seq then
  if not bucket[3] then
    rcall('ZREM', transfersKey, voucherId)
  end
  return 0
end
rcall('HDEL', bucketKey, 'transferTo', 'transferUnits')
rcall('ZREM', transfersKey, voucherId)
return 1
