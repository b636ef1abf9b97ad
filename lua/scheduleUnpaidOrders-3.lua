--[[
  Schedules a rebuilt voucher's unpaid orders for expiry again (a Redis that forgot the voucher may have lost its
  due orders too), as part of the rebuild that marked the voucher: only while the voucher still carries that
  rebuild's mark, so no unit is returned meanwhile (returnUnit-3.lua waits for the mark to go) and the orders it
  was told about are still unpaid and unreturned. An order already due keeps its score (ZADD NX); one being
  cancelled is left to its canceller: scheduling it again would make a second token, and a second return of its
  unit.

  Input:
    KEYS[1] voucher hash      seckill:{sN}:voucher:<id>        field rebuilding
    KEYS[2] due orders        seckill:{sN}:orders:due          zset, member <orderId>:<userId>, score payBefore
    KEYS[3] being cancelled   seckill:{sN}:orders:cancelling   zset, same members

    ARGV[1]    the rebuild's token, as set in the hash's rebuilding field
    ARGV[2…]   pairs: payBefore (epoch ms), member

  Output:
    1  scheduled (every order due or being cancelled now)
    0  the voucher is not marked with this token (another rebuild took over); nothing changed
]]
local rcall = redis.call

local voucherKey = KEYS[1]
local dueKey = KEYS[2]
local cancellingKey = KEYS[3]

local token = ARGV[1]

if rcall('HGET', voucherKey, 'rebuilding') ~= token then
  return 0
end
for i = 2, #ARGV, 2 do
  local payBefore = ARGV[i]
  local member = ARGV[i + 1]
  if not rcall('ZSCORE', cancellingKey, member) then
    rcall('ZADD', dueKey, 'NX', payBefore, member)
  end
end
return 1
