package reference;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * The yardstick for the intake (bench/README.md): what a team would write by hand instead of the service. One plain
 * Spring MVC controller runs the service's own admission script (the file given as --reference.script) through
 * StringRedisTemplate against the same Redis and the same keys, and answers 202 with the same JSON or 409 with the
 * refusal's code. No rate limits (the script's limits are off, as in the service's limits-off run), no metrics, no
 * validation beyond Spring's type conversion: the framework's floor.
 * Not part of the service; bench/run.sh compiles it against the service jar's own libraries.
 */
@SpringBootApplication
@RestController
public class ReferenceIntake {

    private static final Pattern KEY_COUNT = Pattern.compile("-(\\d+)\\.lua$");
    private static final int KEYS = 6;
    /** ARGV[5] to ARGV[9]: both rate limits off. */
    private static final String NO_LIMIT = "0";
    private static final List<String> REFUSALS =
            List.of("ACCEPTED", "VOUCHER_NOT_FOUND", "NOT_STARTED", "ENDED", "SOLD_OUT", "ALREADY_ORDERED");

    private static final MediaType PROBLEM = MediaType.valueOf("application/problem+json");
    private static final String SOLD_OUT = "{\"type\":\"about:blank\",\"title\":\"Conflict\",\"status\":409,"
            + "\"detail\":\"Voucher 1 is sold out\",\"code\":\"SOLD_OUT\"}";

    private final StringRedisTemplate redis;
    @SuppressWarnings("rawtypes")
    private final DefaultRedisScript<List> admitOrder;
    private final String paymentTimeoutMillis;
    // Far from the service's Snowflake ids and from run.sh's backlog ids, so the rows never collide.
    private final AtomicLong orderIds = new AtomicLong(7_000_000_000_000_000_000L);

    public ReferenceIntake(StringRedisTemplate redis, org.springframework.core.env.Environment environment)
            throws Exception {
        this.redis = redis;
        Path script = Path.of(environment.getRequiredProperty("reference.script"));
        Matcher keys = KEY_COUNT.matcher(script.getFileName().toString());
        if (!keys.find()) {
            throw new IllegalArgumentException("no key count in the script's name: " + script);
        }
        if (Integer.parseInt(keys.group(1)) != KEYS) {
            throw new IllegalArgumentException("the reference passes " + KEYS + " keys, not " + keys.group(1));
        }
        this.admitOrder = new DefaultRedisScript<>(Files.readString(script), List.class);
        this.paymentTimeoutMillis = environment.getProperty("reference.payment-timeout-millis", "900000");
    }

    public static void main(String[] args) {
        SpringApplication.run(ReferenceIntake.class, args);
    }

    @PostMapping("/api/vouchers/{voucherId}/orders")
    public ResponseEntity<Map<String, Object>> order(@PathVariable("voucherId") long voucherId,
            @RequestHeader("X-User-Id") long userId) {
        long orderId = orderIds.incrementAndGet();
        List<?> answer = redis.execute(admitOrder, keys(voucherId), String.valueOf(orderId), String.valueOf(voucherId),
                String.valueOf(userId), paymentTimeoutMillis, NO_LIMIT, NO_LIMIT, NO_LIMIT, NO_LIMIT, NO_LIMIT);
        Long outcome = answer == null || answer.isEmpty() ? null : (Long) answer.get(0);
        if (outcome != null && outcome == 0) {
            return ResponseEntity.status(HttpStatus.ACCEPTED).body(Map.of("orderId", String.valueOf(orderId),
                    "voucherId", voucherId, "userId", userId, "status", "QUEUED"));
        }
        String code = outcome == null || outcome >= REFUSALS.size() ? "REFUSED" : REFUSALS.get(outcome.intValue());
        return ResponseEntity.status(HttpStatus.CONFLICT).body(Map.of("status", 409, "code", code));
    }

    /**
     * The engine's own floor for a refusal (bench/first-seconds.sh, the sold-out flood): Tomcat and Spring MVC answer
     * a constant 409 problem, as the service answers SOLD_OUT, and touch nothing else.
     */
    @PostMapping("/api/vouchers/{voucherId}/refused")
    public ResponseEntity<String> refused(@PathVariable("voucherId") long voucherId,
            @RequestHeader("X-User-Id") long userId) {
        return ResponseEntity.status(HttpStatus.CONFLICT).contentType(PROBLEM).body(SOLD_OUT);
    }

    /** The contract's keys of one voucher on shard 0, in the order of the script's KEYS. */
    private static List<String> keys(long voucherId) {
        return List.of("seckill:{s0}:voucher:" + voucherId, "seckill:{s0}:buyers:" + voucherId,
                "seckill:{s0}:orders", "seckill:{s0}:orders:due", "seckill:{s0}:rate-limit:buyer:reference",
                "seckill:{s0}:rate-limit:address:reference");
    }
}
