package io.seckill.support;

import com.zaxxer.hikari.HikariDataSource;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * Wraps the service's real DataSource so a test can make the database fail the way real ones do:
 * <ul>
 * <li>{@link #goDown()}: every {@code getConnection} waits for the pool's connection timeout, then throws
 * {@link SQLTransientConnectionException}, as a connection pool does when the server is unreachable;</li>
 * <li>{@link #failWritesWith(String, String)}: connections still validate and reads work, but every statement
 * writing orders throws a {@link SQLException} with that SQLSTATE, as a read-only standby after a failover
 * (25006), a full disk (53100) or a lock timeout (55P03) does;</li>
 * <li>{@link #failWritesOf(long)}: every statement writing that order id throws a plain, non-transient
 * {@link SQLException} (an unknown failure that retrying cannot fix);</li>
 * <li>{@link #loseConnectionWritingAlone(long)}: a batch holding that order fails as above, and writing it alone
 * throws {@link SQLTransientConnectionException}: an outage that starts while a batch is written one by one.</li>
 * </ul>
 * <li>{@link #delayWritesOf(long, Duration)}: every statement writing that order id takes that long, then
 * succeeds (a batch written slowly, for example one by one after a failure).</li>
 * Writes of a failed order are counted, alone and in batches, so tests can check the number of attempts; so are
 * the writes of a delayed one.
 */
public class FaultyDatabase implements BeanPostProcessor {

    private volatile boolean down;
    private volatile long connectionTimeoutMillis = 1000;
    private volatile SQLException writeFailure;
    private final AtomicInteger refusedWrites = new AtomicInteger();
    private final AtomicInteger refusedConnections = new AtomicInteger();
    private final Set<Long> failingOrders = ConcurrentHashMap.newKeySet();
    private final Set<Long> transientAlone = ConcurrentHashMap.newKeySet();
    private final Map<Long, Runnable> onFailedWrite = new ConcurrentHashMap<>();
    private final Map<Long, AtomicInteger> singleWrites = new ConcurrentHashMap<>();
    private final Map<Long, AtomicInteger> batchWrites = new ConcurrentHashMap<>();
    private final Map<Long, Duration> delayedOrders = new ConcurrentHashMap<>();
    private final Map<Long, AtomicInteger> delayedWrites = new ConcurrentHashMap<>();
    private volatile DataSource real;

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof DataSource dataSource && !(bean instanceof Faulty)) {
            real = dataSource;
            if (dataSource instanceof HikariDataSource pool) {
                connectionTimeoutMillis = pool.getConnectionTimeout();
            }
            return new Faulty(dataSource);
        }
        return bean;
    }

    /** The database as it is, for assertions while the service sees it down. */
    public DataSource real() {
        return real;
    }

    public void goDown() {
        down = true;
    }

    public void comeBack() {
        down = false;
    }

    /** Every statement writing orders fails with this SQLSTATE; connections and reads are fine. */
    public void failWritesWith(String sqlState, String message) {
        writeFailure = new SQLException("injected: " + message, sqlState);
    }

    /** How many writes were refused by {@link #failWritesWith(String, String)}. */
    public int refusedWrites() {
        return refusedWrites.get();
    }

    /** How many connections were refused while down. */
    public int refusedConnections() {
        return refusedConnections.get();
    }

    public void failWritesOf(long orderId) {
        failingOrders.add(orderId);
    }

    /** Runs {@code action} each time a write of this (failing) order alone fails, before the failure is thrown. */
    public void whenWriteFails(long orderId, Runnable action) {
        onFailedWrite.put(orderId, action);
    }

    public void delayWritesOf(long orderId, Duration delay) {
        delayedOrders.put(orderId, delay);
    }

    /** Statements, alone or batches, that started writing this delayed order. */
    public int writesOfDelayed(long orderId) {
        return delayedWrites.getOrDefault(orderId, new AtomicInteger()).get();
    }

    public void loseConnectionWritingAlone(long orderId) {
        failingOrders.add(orderId);
        transientAlone.add(orderId);
    }

    public void healAll() {
        down = false;
        writeFailure = null;
        failingOrders.clear();
        transientAlone.clear();
        onFailedWrite.clear();
        delayedOrders.clear();
    }

    /** Statements that tried to write this (failing) order alone. */
    public int singleWritesOf(long orderId) {
        return singleWrites.getOrDefault(orderId, new AtomicInteger()).get();
    }

    /** JDBC batches that tried to write this (failing) order among others. */
    public int batchWritesOf(long orderId) {
        return batchWrites.getOrDefault(orderId, new AtomicInteger()).get();
    }

    private static String describe(long orderId) {
        return "injected failure writing order " + orderId;
    }

    /** Marks the wrapper, so a DataSource is wrapped once. */
    private final class Faulty extends DelegatingDataSource {

        Faulty(DataSource target) {
            super(target);
        }

        @Override
        public Connection getConnection() throws SQLException {
            refuseWhileDown();
            return connection(super.getConnection());
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            refuseWhileDown();
            return connection(super.getConnection(username, password));
        }

        private void refuseWhileDown() throws SQLTransientConnectionException {
            if (down) {
                // As HikariCP does: wait for a connection until the timeout, then give up.
                try {
                    Thread.sleep(connectionTimeoutMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                refusedConnections.incrementAndGet();
                throw new SQLTransientConnectionException("injected outage: database unreachable, request timed out "
                        + "after " + connectionTimeoutMillis + "ms", "08001");
            }
        }
    }

    private Connection connection(Connection real) {
        InvocationHandler handler = (proxy, method, args) -> {
            Object result = invoke(real, method, args);
            if (method.getName().equals("prepareStatement") && args != null && args[0] instanceof String sql
                    && isWrite(sql)) {
                return statement((PreparedStatement) result);
            }
            return result;
        };
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                handler);
    }

    private static boolean isWrite(String sql) {
        String text = sql.strip().toUpperCase(Locale.ROOT);
        return text.contains("INTO ORDERS");
    }

    /** Remembers the parameters set (per row of a batch) and fails execution when a failing order is among them. */
    private PreparedStatement statement(PreparedStatement real) {
        Map<Integer, Object> current = new HashMap<>();
        List<Map<Integer, Object>> batch = new ArrayList<>();
        InvocationHandler handler = (proxy, method, args) -> {
            String name = method.getName();
            SQLException failure = writeFailure;
            if (failure != null && name.startsWith("execute")) {
                refusedWrites.incrementAndGet();
                batch.clear();
                throw new SQLException(failure.getMessage(), failure.getSQLState());
            }
            if (name.startsWith("set") && args != null && args.length >= 2 && args[0] instanceof Integer index) {
                current.put(index, args[1]);
            } else if (name.equals("clearParameters")) {
                current.clear();
            } else if (name.equals("addBatch") && (args == null || args.length == 0)) {
                batch.add(new HashMap<>(current));
            } else if (name.equals("clearBatch")) {
                batch.clear();
            }
            if (name.startsWith("execute")) {
                delay(name.contains("Batch") ? batch : List.of(current));
            }
            if (name.equals("executeBatch") || name.equals("executeLargeBatch")) {
                List<Map<Integer, Object>> rows = new ArrayList<>(batch);
                Long failing = failingAmong(rows);
                if (failing != null) {
                    batch.clear();
                    batchWrites.computeIfAbsent(failing, id -> new AtomicInteger()).incrementAndGet();
                    throw new SQLException(describe(failing), "HY000");
                }
            } else if (name.startsWith("execute")) {
                Long failing = failingAmong(List.of(current));
                if (failing != null) {
                    singleWrites.computeIfAbsent(failing, id -> new AtomicInteger()).incrementAndGet();
                    onFailedWrite.getOrDefault(failing, () -> { }).run();
                    if (transientAlone.contains(failing)) {
                        throw new SQLTransientConnectionException("injected: connection lost writing order " + failing);
                    }
                    throw new SQLException(describe(failing), "HY000");
                }
            }
            return invoke(real, method, args);
        };
        return (PreparedStatement) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, handler);
    }

    private void delay(List<Map<Integer, Object>> rows) throws InterruptedException {
        for (Map<Integer, Object> row : rows) {
            for (Object value : row.values()) {
                if (value instanceof Number number && delayedOrders.containsKey(number.longValue())) {
                    delayedWrites.computeIfAbsent(number.longValue(), id -> new AtomicInteger()).incrementAndGet();
                    Thread.sleep(delayedOrders.get(number.longValue()).toMillis());
                    return;
                }
            }
        }
    }

    private Long failingAmong(List<Map<Integer, Object>> rows) {
        for (Map<Integer, Object> row : rows) {
            for (Object value : row.values()) {
                if (value instanceof Number number && failingOrders.contains(number.longValue())) {
                    return number.longValue();
                }
            }
        }
        return null;
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
