--[[
  Which of these cancelled orders have not had their unit returned yet: those whose member is still among the due
  orders or the orders being cancelled (the token that returnUnit-3.lua removes when it returns the unit). Both
  sets are read in one step, so an order moving between them (popDueOrders-2.lua, deferDueOrder-2.lua) is seen.
  A voucher's rebuild counts these as holding their unit.

  Input:
    KEYS[1] due orders        seckill:{sN}:orders:due          zset, member <orderId>:<userId>
    KEYS[2] being cancelled   seckill:{sN}:orders:cancelling   zset, same members

    ARGV[1…] members          <orderId>:<userId>

  Output:
    the members found in either set
]]
local rcall = redis.call

local dueKey = KEYS[1]
local cancellingKey = KEYS[2]

local found = {}
for _, member in ipairs(ARGV) do
  if rcall('ZSCORE', dueKey, member) or rcall('ZSCORE', cancellingKey, member) then
    found[#found + 1] = member
  end
end
return found
