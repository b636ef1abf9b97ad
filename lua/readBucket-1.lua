--[[
  One stock bucket of a voucher as a transfer sees it (docs/buckets.md), read in one step: whether units are in it
  or on their way from it, and how many transfers have left it. Read before and after a refill found every other
  bucket empty, it tells whether that was so at one moment: no unit seen, and no transfer between the two reads.

  Input:
    KEYS[1] the bucket's hash   seckill:{sN}:voucher:<id>   fields stock, rebuilding, transferSeq, transferTo

  Output: {stock (-1: the hash is gone), transfers that left it (transferSeq, 0 for none), 1 while one is under way
    else 0, 1 while the voucher is being rebuilt else 0}
]]
local bucket = redis.call('HMGET', KEYS[1], 'stock', 'transferSeq', 'transferTo', 'rebuilding')
return {tonumber(bucket[1]) or -1, tonumber(bucket[2]) or 0, bucket[3] and 1 or 0, bucket[4] and 1 or 0}
