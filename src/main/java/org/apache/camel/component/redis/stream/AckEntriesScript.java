/*
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.
 * The ASF licenses this file to You under the Apache License, Version 2.0
 * (the "License"); you may not use this file except in compliance with
 * the License.  You may obtain a copy of the License at
 *
 *      http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package org.apache.camel.component.redis.stream;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * XACK of processed entries and their removal from the stream, in one step ({@code ackEntries-1.lua} of this
 * package): the {@code deleteAfterAck} option, also for code that claims entries itself (XAUTOCLAIM) and
 * acknowledges them the same way.
 */
public class AckEntriesScript {

    private final PackagedScript script;

    public AckEntriesScript(StringRedisTemplate redis) {
        this.script = new PackagedScript("ackEntries-1.lua", redis);
    }

    /**
     * @param group the consumer group the entries were read through
     * @param ids entry ids in stream order
     * @return how many of the entries were still pending
     */
    public long ack(String stream, String group, Collection<String> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        List<Object> args = new ArrayList<>(ids.size() + 1);
        args.add(group);
        args.addAll(ids);
        return script.run(stream, args);
    }

    /** Entries may come from several streams (a claim over several): one call per stream. */
    public long ack(String group, List<StreamEntry> entries) {
        long acked = 0;
        for (Map.Entry<String, List<String>> stream : StreamEntry.idsByStream(entries).entrySet()) {
            acked += ack(stream.getKey(), group, stream.getValue());
        }
        return acked;
    }
}
