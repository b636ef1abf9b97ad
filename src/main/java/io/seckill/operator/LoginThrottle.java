package io.seckill.operator;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.concurrent.TimeUnit;

/**
 * Failed logins per client address, for every door that checks the operator's password (HTTP Basic and the login
 * form on the management URLs, HTTP Basic on the admin verbs): after {@code max-failures} within {@code window}
 * the address is refused at once, without the password check (bcrypt, about 100 ms of CPU each), until the window
 * has passed; a login that succeeds forgets the address's failures.
 *
 * <p>Kept in this instance's memory, not in Redis: a login is rare, and what it protects is this instance's CPU,
 * which the counts of other instances do not spend. With n instances a guesser gets n times the attempts, still
 * a few per minute. The map holds at most {@link #MAX_ADDRESSES} addresses (Caffeine evicts the least used), so a
 * guesser spraying addresses costs a bounded amount of memory, never an unbounded map.
 */
public final class LoginThrottle {

    static final long MAX_ADDRESSES = 100_000;
    private static final long NANOS_PER_SECOND = TimeUnit.SECONDS.toNanos(1);

    /** Failures counted since {@code windowStart} (System.nanoTime). */
    private record Failures(int count, long windowStart) {}

    private final OperatorProperties.LoginThrottle settings;
    private final long windowNanos;
    private final Cache<String, Failures> failures;

    public LoginThrottle(OperatorProperties.LoginThrottle settings) {
        this.settings = settings;
        this.windowNanos = settings.window().toNanos();
        // Written at each failure, so an entry outlives its window (the reads check the window themselves).
        this.failures = Caffeine.newBuilder().maximumSize(MAX_ADDRESSES).expireAfterWrite(settings.window()).build();
    }

    /** Whole seconds until this address may try a login again; 0 while it may now. */
    public long retryAfterSeconds(String address) {
        if (!settings.enabled()) {
            return 0;
        }
        Failures counted = failures.getIfPresent(address);
        if (counted == null || counted.count() < settings.maxFailures()) {
            return 0;
        }
        long left = counted.windowStart() + windowNanos - System.nanoTime();
        return left <= 0 ? 0 : (left + NANOS_PER_SECOND - 1) / NANOS_PER_SECOND;
    }

    public void failed(String address) {
        if (settings.enabled()) {
            long now = System.nanoTime();
            failures.asMap().compute(address, (key, counted) -> counted == null
                    || now - counted.windowStart() >= windowNanos ? new Failures(1, now)
                    : new Failures(counted.count() + 1, counted.windowStart()));
        }
    }

    public void succeeded(String address) {
        failures.invalidate(address);
    }

    /** The detail of a refusal, the same at every door. */
    public String refusal(String address, long retryAfterSeconds) {
        return "Too many failed logins from " + address + " (at most " + settings.maxFailures() + " in "
                + settings.window().toSeconds() + " s); retry in " + retryAfterSeconds + " s";
    }
}
