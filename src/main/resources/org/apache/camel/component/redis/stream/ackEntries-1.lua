--
-- Licensed to the Apache Software Foundation (ASF) under one or more
-- contributor license agreements.  See the NOTICE file distributed with
-- this work for additional information regarding copyright ownership.
-- The ASF licenses this file to You under the Apache License, Version 2.0
-- (the "License"); you may not use this file except in compliance with
-- the License.  You may obtain a copy of the License at
--
--      http://www.apache.org/licenses/LICENSE-2.0
--
-- Unless required by applicable law or agreed to in writing, software
-- distributed under the License is distributed on an "AS IS" BASIS,
-- WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
-- See the License for the specific language governing permissions and
-- limitations under the License.
--
--[[
  Acknowledges processed stream entries and removes them from the stream, in one step, so the stream holds only
  what is still unread or pending and stays bounded by the backlog. For a stream that one consumer group reads:
  another group's unread entries would be trimmed too.

  Removing is the costly half: XDEL finds each entry inside its stream node by walking the node (up to
  stream-node-max-entries entries), some microseconds per entry, and Redis spent more on it than on the reads. So
  the entries below every pending and every unread one go with one XTRIM MINID, which drops whole nodes, and XDEL
  is left for those acknowledged ahead of an older entry still pending (another reader's batch not yet written).
  Every entry below that bound was delivered (it is at or below the group's last-delivered-id) and is not pending,
  so it was acknowledged: the trim removes nothing that waits.

  Input:
    KEYS[1] the stream

    ARGV[1]  consumer group
    ARGV[2…] entry ids, in stream order

  Output:
    the number of entries that were still pending and are now acknowledged
]]
local rcall = redis.call

local streamKey = KEYS[1]
local group = ARGV[1]

local ids = {}
for i = 2, #ARGV do
  ids[#ids + 1] = ARGV[i]
end

local acked = rcall('XACK', streamKey, group, unpack(ids))

-- An entry id as two numbers (milliseconds, sequence); both stay below 2^53 for any real clock.
local function parse(id)
  local ms, seq = string.match(id, '^(%d+)-(%d+)$')
  return tonumber(ms), tonumber(seq)
end

local function below(aMs, aSeq, bMs, bSeq)
  return aMs < bMs or (aMs == bMs and aSeq < bSeq)
end

-- The first entry that may still wait: the oldest pending one, or else the first one after the group's
-- last-delivered-id (XPENDING's summary and XINFO GROUPS are both cheap: no walk over the entries).
local boundMs, boundSeq
local pending = rcall('XPENDING', streamKey, group)
if pending[1] > 0 then
  boundMs, boundSeq = parse(pending[2])
else
  local groups = rcall('XINFO', 'GROUPS', streamKey)
  for _, info in ipairs(groups) do
    local name, lastDelivered
    for j = 1, #info, 2 do
      if info[j] == 'name' then
        name = info[j + 1]
      elseif info[j] == 'last-delivered-id' then
        lastDelivered = info[j + 1]
      end
    end
    if name == group then
      boundMs, boundSeq = parse(lastDelivered)
      boundSeq = boundSeq + 1
    end
  end
end

if boundMs == nil then
  rcall('XDEL', streamKey, unpack(ids))
  return acked
end

rcall('XTRIM', streamKey, 'MINID', boundMs .. '-' .. boundSeq)
-- The ids come in stream order (a read's or a claim's), so those not below the bound are a tail: walked from the
-- end, the usual batch (all below) costs one parse, not one per entry (parsing every id was two thirds of the
-- script's time). An id out of order ahead of the bound would only stay in the stream, acknowledged, until a
-- later trim passes it.
local ahead = {}
for i = #ids, 1, -1 do
  local ms, seq = parse(ids[i])
  if below(ms, seq, boundMs, boundSeq) then
    break
  end
  ahead[#ahead + 1] = ids[i]
end
if #ahead > 0 then
  rcall('XDEL', streamKey, unpack(ahead))
end
return acked
