package io.seckill.refusal;

import org.springframework.stereotype.Component;

/**
 * Ids in paths and the {@code X-User-Id} header: positive 64-bit integers written as plain ASCII digits (no sign,
 * no spaces, no other scripts' digits, which {@link Long#parseLong} would take); anything else is a 400.
 */
@Component("requestIds")
public class RequestIds {

    public long positive(String value, String name) {
        if (value == null || value.isBlank()) {
            throw Refusal.invalid(name + " is missing");
        }
        long id = parse(value);
        if (id == 0) {
            throw notAnId(value, name);
        }
        return id;
    }

    /**
     * The same reading without a refusal, for a caller that passes what it cannot read on to {@link #positive}.
     *
     * @return the id, or 0 when {@code value} is none
     */
    public static long parse(String value) {
        if (value == null || value.isEmpty()) {
            return 0;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return 0;
            }
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException beyond64Bits) {
            return 0;
        }
    }

    private static Refusal notAnId(String value, String name) {
        return Refusal.invalid(name + " must be a positive 64-bit integer, got '" + abbreviate(value) + "'");
    }

    private static String abbreviate(String value) {
        return value.length() <= 40 ? value : value.substring(0, 40) + "…";
    }
}
