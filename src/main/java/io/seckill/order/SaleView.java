package io.seckill.order;

import java.util.Arrays;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;

/**
 * This instance's memory of what Redis answered about each voucher, so that the flood of a sale is refused without
 * a round trip: before the start (NOT_STARTED), after the end (ENDED), once sold out (SOLD_OUT, or ALREADY_ORDERED
 * to a buyer who holds a unit). It only repeats what the admission script said, for at most {@code ttl}, and
 * NOT_STARTED only until the start by Redis's clock: it never refuses what Redis would accept, and an acceptance
 * always goes through the script.
 *
 * <p>A voucher whose units come back (an unpaid order cancelled, a rebuild) is forgotten at once on every instance:
 * the scripts that do it publish the voucher's id ({@link SaleViewMessages}). A lost message costs at most
 * {@code ttl}: the memory of a refusal expires by itself. An answer that left Redis before such a message and
 * arrives after it is not remembered (each voucher counts its messages; a reply is kept only if none came since its
 * request was sent).
 *
 * <p>SOLD_OUT from memory must not hide ALREADY_ORDERED from a winner clicking again: while a voucher is sold out,
 * its buyers set cannot grow (every unit is taken) and shrinks only through a returned unit, which forgets the
 * voucher. So a copy of the set taken once the voucher is sold out answers a buyer exactly as the script would; a
 * set larger than {@code maxBuyers} is not copied, and its voucher's refusals go on to Redis.
 */
public final class SaleView {

    /** What a request sent to Redis needs to know to remember the answer: the messages seen before it left. */
    public record Ticket(long voucherId, long messagesSeen, long sentAtNanos) {}

    /** A window learned from a NOT_STARTED answer; times in Redis's epoch ms. */
    private record NotStarted(long beginAt, long redisNowAtSend, long sentAtNanos) {}

    /** One voucher's memory. {@code buyers}: sold out, with the copy of its buyers set (sorted). */
    private record Known(NotStarted notStarted, boolean ended, long[] buyers, long learnedAtNanos) {}

    /**
     * A sold-out voucher's buyers set as copied, valid while no message came for the voucher; {@code buyers} null
     * while the copy is on its way, or when the set was too large to copy.
     */
    private record Copy(long[] buyers, long messagesSeen, long copiedAtNanos) {}

    /** How long a copy of a buyers set serves at most, should a message that forgot it have been lost. */
    private static final long COPY_MAX_AGE_NANOS = 10_000_000_000L;

    private final ConcurrentHashMap<Long, Known> known = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, Copy> copies = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, AtomicLong> messages = new ConcurrentHashMap<>();
    private final LongSupplier nanoTime;
    private final boolean enabled;
    private final long ttlNanos;
    private final long startMarginMillis;
    /** Loads a voucher's buyers once it is sold out; completes with null when they are too many to copy. */
    private final LongFunction<CompletionStage<long[]>> buyersOf;

    public SaleView(SaleViewProperties properties, LongFunction<CompletionStage<long[]>> buyersOf,
            LongSupplier nanoTime) {
        this.enabled = properties.enabled();
        this.ttlNanos = properties.ttl().toNanos();
        this.startMarginMillis = properties.startMargin().toMillis();
        this.buyersOf = buyersOf;
        this.nanoTime = nanoTime;
    }

    /**
     * The refusal Redis would give this buyer now, or null when only Redis can tell (then the request goes to the
     * script).
     */
    public AdmissionOutcome refusal(long voucherId, long userId) {
        Known voucher = enabled ? known.get(voucherId) : null;
        if (voucher == null) {
            return null;
        }
        long now = nanoTime.getAsLong();
        if (now - voucher.learnedAtNanos() > ttlNanos) {
            known.remove(voucherId, voucher);
            return null;
        }
        if (voucher.ended()) {
            return AdmissionOutcome.ENDED;
        }
        NotStarted window = voucher.notStarted();
        if (window != null) {
            long redisNowAtMost = window.redisNowAtSend() + (now - window.sentAtNanos()) / 1_000_000;
            return redisNowAtMost + startMarginMillis < window.beginAt() ? AdmissionOutcome.NOT_STARTED : null;
        }
        if (voucher.buyers() != null) {
            return Arrays.binarySearch(voucher.buyers(), userId) >= 0 ? AdmissionOutcome.ALREADY_ORDERED
                    : AdmissionOutcome.SOLD_OUT;
        }
        return null;
    }

    /** Taken just before the script is sent. */
    public Ticket ticket(long voucherId) {
        return new Ticket(voucherId, messagesOf(voucherId).get(), nanoTime.getAsLong());
    }

    /** The script answered NOT_STARTED; {@code redisNow} is its server's clock when it ran. */
    public void notStarted(Ticket ticket, long beginAt, long redisNow) {
        // Redis read its clock after the request left: at the send it was at most redisNow, and it has run at most
        // as fast as ours since.
        remember(ticket, new Known(new NotStarted(beginAt, redisNow, ticket.sentAtNanos()), false, null,
                ticket.sentAtNanos()));
    }

    public void ended(Ticket ticket) {
        remember(ticket, new Known(null, true, null, ticket.sentAtNanos()));
    }

    /** The script answered SOLD_OUT: remembered once the voucher's buyers are copied. */
    public void soldOut(Ticket ticket) {
        if (!enabled) {
            return;
        }
        long voucherId = ticket.voucherId();
        long now = nanoTime.getAsLong();
        Copy copy = copies.get(voucherId);
        if (copy != null && (copy.messagesSeen() != ticket.messagesSeen()
                || now - copy.copiedAtNanos() > COPY_MAX_AGE_NANOS)) {
            copies.remove(voucherId, copy);
            copy = null;
        }
        if (copy == null) {
            copies.values().removeIf(old -> now - old.copiedAtNanos() > COPY_MAX_AGE_NANOS);
            Copy loading = new Copy(null, ticket.messagesSeen(), now);
            if (copies.putIfAbsent(voucherId, loading) == null) {
                copy(ticket, loading);
            }
        } else if (copy.buyers() != null) {
            remember(ticket, new Known(null, false, copy.buyers(), ticket.sentAtNanos()));
        }
    }

    private void copy(Ticket ticket, Copy loading) {
        long voucherId = ticket.voucherId();
        buyersOf.apply(voucherId).whenComplete((buyers, failure) -> {
            if (failure != null) {
                copies.remove(voucherId, loading); // copied again at the next SOLD_OUT
            } else if (buyers != null) {
                long[] sorted = buyers.clone();
                Arrays.sort(sorted);
                Copy copied = new Copy(sorted, loading.messagesSeen(), loading.copiedAtNanos());
                if (copies.replace(voucherId, loading, copied)) {
                    remember(ticket, new Known(null, false, sorted, ticket.sentAtNanos()));
                }
            }
            // Too many buyers to copy: the loading copy stays, so its refusals go on to Redis until it is old.
        });
    }

    /** A unit of this voucher came back, or its state changed: forget it (a message of {@link SaleViewMessages}). */
    public void changed(long voucherId) {
        messagesOf(voucherId).incrementAndGet();
        known.remove(voucherId);
        copies.remove(voucherId);
    }

    /** @return false when a message came for this voucher since the ticket was taken: the answer is outdated */
    private boolean remember(Ticket ticket, Known answer) {
        if (!enabled) {
            return false;
        }
        AtomicLong seen = messagesOf(ticket.voucherId());
        if (seen.get() != ticket.messagesSeen()) {
            return false;
        }
        known.put(ticket.voucherId(), answer);
        // A message that arrived between the check and the put must win.
        if (seen.get() != ticket.messagesSeen()) {
            known.remove(ticket.voucherId(), answer);
            return false;
        }
        return true;
    }

    private AtomicLong messagesOf(long voucherId) {
        return messages.computeIfAbsent(voucherId, id -> new AtomicLong());
    }
}
