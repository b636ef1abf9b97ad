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
  Keeps entries a live consumer is still processing from looking idle, so that no claimer of idle entries (XAUTOCLAIM
  with a min-idle time) takes them from under it: the entries this consumer still holds are claimed again by it
  with IDLE 0 and JUSTID, which resets their idle time without counting a delivery. Entries another consumer
  holds by now, or that are acknowledged already, are left alone.

  Input:
    KEYS[1] the stream

    ARGV[1]  consumer group
    ARGV[2]  consumer name
    ARGV[3…] entry ids

  Output:
    the number of entries refreshed
]]
local rcall = redis.call

local streamKey = KEYS[1]

local group = ARGV[1]
local consumer = ARGV[2]

local claim = { streamKey, group, consumer, 0 }
local held = 0
for i = 3, #ARGV do
  -- XPENDING key group id id 1 consumer: still pending, and held by this consumer
  if #rcall('XPENDING', streamKey, group, ARGV[i], ARGV[i], 1, consumer) > 0 then
    claim[#claim + 1] = ARGV[i]
    held = held + 1
  end
end
if held == 0 then
  return 0
end
claim[#claim + 1] = 'IDLE'
claim[#claim + 1] = 0
claim[#claim + 1] = 'JUSTID'
rcall('XCLAIM', unpack(claim))
return held
