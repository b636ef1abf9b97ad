package io.seckill.stream;

import io.seckill.lua.LuaScript;
import io.seckill.lua.LuaScripts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Entries this instance is writing right now (a reader's batch, the sweeper's claim), kept from looking idle
 * while they are written: every third of the sweeper's min-idle time, {@code lua/touchEntries-1.lua} resets their
 * idle time (XCLAIM … IDLE 0 JUSTID, no delivery counted). A batch written one by one after a failure may take
 * longer than min-idle; without this, any instance's sweeper would claim it and write it a second time, and count a
 * delivery each time. An instance that crashed stops refreshing, and its entries are swept after min-idle.
 */
public class InFlightEntries implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(InFlightEntries.class);
    /** Ids per script call: the script passes them to XCLAIM as arguments. */
    private static final int IDS_PER_CALL = 1000;

    private final LuaScript<Long> touchScript;
    private final long periodMillis;
    private final Set<Hold> holds = ConcurrentHashMap.newKeySet();
    private ScheduledExecutorService refresher;

    /**
     * @param minIdle the idle time after which a sweeper claims an entry: entries held are refreshed every third of
     *     it
     */
    public InFlightEntries(LuaScripts scripts, Duration minIdle) {
        this.touchScript = scripts.load("touchEntries-1.lua", Long.class);
        this.periodMillis = Math.max(1, minIdle.toMillis() / 3);
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
                touchScript.run(List.of(stream), args.toArray());
            }
        } catch (RuntimeException e) {
            log.warn("Could not keep {} in-flight entries of {} fresh ({}); a sweeper may claim them after its "
                    + "min-idle time", ids.size(), stream, e.getMessage());
        }
    }

    @Override
    public synchronized void start() {
        refresher = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "in-flight-entries");
            thread.setDaemon(true);
            return thread;
        });
        refresher.scheduleWithFixedDelay(this::refresh, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (refresher != null) {
            refresher.shutdownNow();
            refresher = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return refresher != null;
    }

    /** With the consumer-name lease: running before any route reads and until every route has stopped. */
    @Override
    public int getPhase() {
        return ConsumerNameLease.PHASE;
    }

    /** Entries kept fresh until closed. */
    public final class Hold implements AutoCloseable {

        private final String group;
        private final String consumerName;
        private final Map<String, List<String>> idsByStream = new LinkedHashMap<>();

        private Hold(String group, String consumerName, List<StreamEntry> entries) {
            this.group = group;
            this.consumerName = consumerName;
            for (StreamEntry entry : entries) {
                idsByStream.computeIfAbsent(entry.stream(), s -> new ArrayList<>()).add(entry.id());
            }
        }

        @Override
        public void close() {
            holds.remove(this);
        }
    }
}
