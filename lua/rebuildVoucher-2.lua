--[[
  Replaces a voucher's sale state with the one rebuilt from the database and the streams, all at once, and lifts
  the rebuilding mark: of a voucher in several stock buckets (docs/buckets.md), one bucket's, each bucket marked and
  rebuilt alike. The rebuild's token becomes the bucket's generation (gen): a transfer of units taken before it
  (takeUnits-2.lua), whose units the rebuild counted afresh, is void, and its record goes with the old hash. Only the rebuild that set the mark may apply: if another instance marked the voucher since
  (its figures are newer), or the mark is gone (a rebuild finished, orders were taken since), nothing changes.

  Input:
    KEYS[1] voucher hash   seckill:{sN}:voucher:<id>   fields stock, beginAt, endAt, rebuilding, buckets, gen
    KEYS[2] buyers set     seckill:{sN}:buyers:<id>    (the bucket's buyers: those whose home bucket it is)

    ARGV[1]  the rebuild's token, as set in the hash's rebuilding field
    ARGV[2]  stock (remaining units)
    ARGV[3]  beginAt (epoch ms)
    ARGV[4]  endAt (epoch ms), or '' for a sale that never ends
    ARGV[5]  voucherId
    ARGV[6]  the sale view's channel: the voucher is announced there once rebuilt, so that every instance forgets
             what it remembered of it (io.seckill.order.SaleView)
    ARGV[7]  the voucher's number of stock buckets
    ARGV[8…] the buyers

  Output:
    1  applied: the hash holds stock, beginAt and endAt only (and buckets and gen, of several buckets), the set
       holds exactly these buyers
    0  the voucher is not marked with this token; nothing changed
]]
local rcall = redis.call

local voucherKey = KEYS[1]
local buyersKey = KEYS[2]

local token = ARGV[1]
local stock = ARGV[2]
local beginAt = ARGV[3]
local endAt = ARGV[4]
local voucherId = ARGV[5]
local channel = ARGV[6]
local buckets = tonumber(ARGV[7])
local FIRST_BUYER = 8
-- SADD takes its members from a Lua stack, which holds some thousands of values: add them in chunks.
local CHUNK = 1000

if rcall('HGET', voucherKey, 'rebuilding') ~= token then
  return 0
end

rcall('DEL', buyersKey)
local chunk = {}
for i = FIRST_BUYER, #ARGV do
  chunk[#chunk + 1] = ARGV[i]
  if #chunk == CHUNK then
    rcall('SADD', buyersKey, unpack(chunk))
    chunk = {}
  end
end
if #chunk > 0 then
  rcall('SADD', buyersKey, unpack(chunk))
end

rcall('DEL', voucherKey)
if endAt == '' then
  rcall('HSET', voucherKey, 'stock', stock, 'beginAt', beginAt)
else
  rcall('HSET', voucherKey, 'stock', stock, 'beginAt', beginAt, 'endAt', endAt)
end
if buckets > 1 then
  rcall('HSET', voucherKey, 'buckets', buckets, 'gen', token)
end
rcall('PUBLISH', channel, voucherId)
return 1
