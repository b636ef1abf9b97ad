package io.seckill.voucher;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.seckill.redis.RedisKeys;
import io.seckill.refusal.Refusal;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Iterator;
import java.util.Set;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Reads a {@code POST /api/vouchers} body and says exactly which field is wrong and why. Parsed by hand from the
 * JSON tree rather than bound to a class, so every mistake gets its own message and none leaks a class name.
 */
@Component
public class VoucherRequests {

    static final int MAX_TITLE_LENGTH = 200;
    static final int MAX_STOCK = 10_000_000;
    private static final Set<String> FIELDS = Set.of("title", "stock", "beginAt", "endAt", "buckets");
    /** Redis keeps the window in epoch milliseconds and the database in TIMESTAMP: dates stay in a sane range. */
    static final Instant EARLIEST = Instant.parse("1970-01-01T00:00:00Z");
    static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999Z");

    /** One JSON value and nothing after it: {@code {...} trailing} is not a body. */
    private final ObjectReader json;
    private final Clock clock;
    /** A voucher's buckets are each on a shard of their own: at most as many as there are shards. */
    private final int shards;

    @Autowired
    public VoucherRequests(ObjectMapper json, RedisKeys keys) {
        this(json, Clock.systemUTC(), keys.shards());
    }

    VoucherRequests(ObjectMapper json, Clock clock, int shards) {
        this.json = json.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        this.clock = clock;
        this.shards = shards;
    }

    public VoucherRequest parse(String body) {
        JsonNode root = readTree(body);
        if (!root.isObject()) {
            throw Refusal.invalid("The body must be a JSON object");
        }
        for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                throw Refusal.invalid("Unknown field '" + abbreviate(name) + "'; expected title, stock, "
                        + "beginAt, endAt, buckets");
            }
        }
        String title = title(root.get("title"));
        int stock = stock(root.get("stock"));
        Instant beginAt = instant(root.get("beginAt"), "beginAt");
        Instant endAt = instant(root.get("endAt"), "endAt");
        if (beginAt == null) {
            beginAt = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        }
        if (endAt != null && !endAt.isAfter(beginAt)) {
            throw Refusal.invalid("endAt must be after beginAt");
        }
        return new VoucherRequest(title, stock, beginAt, endAt, buckets(root.get("buckets")));
    }

    private int buckets(JsonNode node) {
        if (node == null || node.isNull()) {
            return 1;
        }
        if (!node.isIntegralNumber()) {
            throw Refusal.invalid("buckets must be a whole number");
        }
        if (!node.canConvertToInt() || node.asInt() < 1 || node.asInt() > shards) {
            throw Refusal.invalid("buckets must be between 1 and " + shards + ", the number of shards "
                    + "(seckill.stream.shards): each bucket is on a shard of its own");
        }
        return node.asInt();
    }

    private JsonNode readTree(String body) {
        if (body == null || body.isBlank()) {
            throw Refusal.invalid("The body is empty; expected a JSON object");
        }
        try {
            return json.readTree(body);
        } catch (JsonProcessingException e) {
            throw Refusal.invalid("The body is not one valid JSON value" + (e.getLocation() == null ? ""
                    : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")"));
        }
    }

    private static String title(JsonNode node) {
        if (node == null || node.isNull()) {
            throw Refusal.invalid("title is required");
        }
        if (!node.isTextual()) {
            throw Refusal.invalid("title must be a string");
        }
        String title = node.asText().strip();
        if (title.isEmpty()) {
            throw Refusal.invalid("title must not be empty");
        }
        // Counted as H2 counts VARCHAR(200), in UTF-16 units: a 200-emoji title would pass a code-point count and
        // fail the insert.
        if (title.length() > MAX_TITLE_LENGTH) {
            throw Refusal.invalid("title must be at most " + MAX_TITLE_LENGTH + " characters (an emoji or "
                    + "another character beyond the Basic Multilingual Plane counts as two)");
        }
        return title;
    }

    private static int stock(JsonNode node) {
        if (node == null || node.isNull()) {
            throw Refusal.invalid("stock is required");
        }
        if (!node.isIntegralNumber()) {
            throw Refusal.invalid("stock must be a whole number");
        }
        if (!node.canConvertToLong() || node.asLong() < 1 || node.asLong() > MAX_STOCK) {
            throw Refusal.invalid("stock must be between 1 and " + MAX_STOCK);
        }
        return node.asInt();
    }

    private static Instant instant(JsonNode node, String field) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw Refusal.invalid(field + " must be an ISO-8601 date-time string such as "
                    + "2026-11-21T10:00:00Z");
        }
        Instant instant;
        try {
            // Redis keeps the window in milliseconds: so does everything else.
            instant = OffsetDateTime.parse(node.asText()).toInstant().truncatedTo(ChronoUnit.MILLIS);
        } catch (DateTimeParseException e) {
            throw Refusal.invalid(field + " is not an ISO-8601 date-time with an offset, such as "
                    + "2026-11-21T10:00:00Z: '" + abbreviate(node.asText()) + "'");
        }
        if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
            throw Refusal.invalid(field + " must be between " + EARLIEST + " and " + LATEST);
        }
        return instant;
    }

    private static String abbreviate(String value) {
        return value.length() <= 40 ? value : value.substring(0, 40) + "…";
    }
}
