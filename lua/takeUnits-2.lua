--[[
  The first step of a transfer of units between two buckets of one voucher (docs/buckets.md): takes units from the
  source bucket and records the transfer in it, so that the units are always in exactly one place: a bucket's
  stock, or this record until the destination is credited. One transfer at a time leaves a bucket: its number
  (transferSeq) grows by one with each, so the destination credits each once (creditUnits-1.lua).

  Input:
    KEYS[1] the source bucket's hash   seckill:{sN}:voucher:<id>   fields stock, rebuilding, gen, transferSeq,
                                                                   transferTo, transferUnits (the record)
    KEYS[2] the source shard's transfers   seckill:{sN}:transfers   zset, member <voucherId>, score when taken
                                           (epoch ms): where the sweeper finds a transfer left half-done

    ARGV[1] the destination bucket's shard
    ARGV[2] voucherId

  Output: {code, seq, destination shard, units, gen} (the last four for 0 and 2; for 4, {4, transferSeq}: how many
  transfers have left the bucket, 0 for none)
    0  taken: the source's stock is lower by units (half of what it held, rounded up), the record says so
    1  the source bucket's hash is gone (Redis forgot it): nothing changed
    2  a transfer from this bucket is under way: its record, for the caller to complete first; nothing changed
    4  the source bucket is empty: nothing changed
    6  the voucher is being rebuilt: nothing changed
]]
local rcall = redis.call

local bucketKey = KEYS[1]
local transfersKey = KEYS[2]
local destination = ARGV[1]
local voucherId = ARGV[2]

local bucket = rcall('HMGET', bucketKey, 'stock', 'rebuilding', 'gen', 'transferSeq', 'transferTo', 'transferUnits')
if bucket[2] then
  return {6}
end
local stock = tonumber(bucket[1])
if not stock then
  return {1}
end
local gen = bucket[3] or '0'
if bucket[5] then
  return {2, tonumber(bucket[4]), tonumber(bucket[5]), tonumber(bucket[6]), gen}
end
if stock <= 0 then
  return {4, tonumber(bucket[4]) or 0}
end

local units = math.ceil(stock / 2)
local time = rcall('TIME')
rcall('HINCRBY', bucketKey, 'stock', -units)
local seq = rcall('HINCRBY', bucketKey, 'transferSeq', 1)
rcall('HSET', bucketKey, 'transferTo', destination, 'transferUnits', units)
rcall('ZADD', transfersKey, tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000), voucherId)
return {0, seq, tonumber(destination), units, gen}
