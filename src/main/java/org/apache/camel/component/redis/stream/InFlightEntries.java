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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.camel.support.service.ServiceSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Entries being processed right now, kept from looking idle: every period, {@code touchEntries-1.lua} of this
 * package resets their idle time (XCLAIM to their holder with IDLE 0 JUSTID, no delivery counted). An exchange may
 * take longer than a claimer's min-idle time (a batch retried entry by entry after a failure); without this, a
 * claimer (XAUTOCLAIM) would take its entries from the live consumer and process them a second time, counting a
 * delivery each time. A consumer that crashed stops refreshing, and its entries become idle and claimable.
 *
 * <p>The {@code keepAlive} option; also for code that claims entries itself and processes them at length.
 */
public class InFlightEntries extends ServiceSupport {

    private static final Logger log = LoggerFactory.getLogger(InFlightEntries.class);
    /** Ids per script call: the script passes them to XCLAIM as arguments. */
    private static final int IDS_PER_CALL = 1000;

    private final PackagedScript touchScript;
    private final long periodMillis;
    private final Set<Hold> holds = ConcurrentHashMap.newKeySet();
    private ScheduledExecutorService refresher;

    /** @param period how often held entries are refreshed: well below the min-idle time of any claimer */
    public InFlightEntries(StringRedisTemplate redis, Duration period) {
        this.touchScript = new PackagedScript("touchEntries-1.lua", redis);
        this.periodMillis = Math.max(1, period.toMillis());
    }

    /**
     * Keeps these entries fresh until the returned hold is closed (after they are acknowledged, or given up).
     *
     * @param group the consumer group they were read or claimed through
     * @param consumerName the consumer that holds them in that group
     */
    public Hold hold(String group, String consumerName, List<StreamEntry> entries) {
        Hold hold = new Hold(group, consumerName, entries);
        if (!entries.isEmpty()) {
            holds.add(hold);
        }
        return hold;
    }

    private void refresh() {
        for (Hold hold : holds) {
            for (Map.Entry<String, List<String>> stream : hold.idsByStream.entrySet()) {
                touch(hold, stream.getKey(), stream.getValue());
            }
        }
    }

    private void touch(Hold hold, String stream, List<String> ids) {
        try {
            for (int from = 0; from < ids.size(); from += IDS_PER_CALL) {
                List<String> part = ids.subList(from, Math.min(ids.size(), from + IDS_PER_CALL));
                List<Object> args = new ArrayList<>(part.size() + 2);
                args.add(hold.group);
                args.add(hold.consumerName);
                args.addAll(part);
                touchScript.run(stream, args);
            }
        } catch (RuntimeException e) {
            log.warn("Could not keep {} in-flight entries of {} fresh ({}); a claimer may take them after its "
                    + "min-idle time", ids.size(), stream, e.getMessage());
        }
    }

    @Override
    protected void doStart() {
        refresher = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "in-flight-entries");
            thread.setDaemon(true);
            return thread;
        });
        refresher.scheduleWithFixedDelay(this::refresh, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    protected void doStop() {
        if (refresher != null) {
            refresher.shutdownNow();
            refresher = null;
        }
    }

    /** Entries kept fresh until closed. */
    public final class Hold implements AutoCloseable {

        private final String group;
        private final String consumerName;
        private final Map<String, List<String>> idsByStream;

        private Hold(String group, String consumerName, List<StreamEntry> entries) {
            this.group = group;
            this.consumerName = consumerName;
            this.idsByStream = StreamEntry.idsByStream(entries);
        }

        @Override
        public void close() {
            holds.remove(this);
        }
    }
}
