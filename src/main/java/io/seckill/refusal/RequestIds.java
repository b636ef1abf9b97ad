package io.seckill.refusal;

import java.util.regex.Pattern;
import org.springframework.stereotype.Component;

/**
 * Ids in paths and the {@code X-User-Id} header: positive 64-bit integers written as plain ASCII digits (no sign,
 * no spaces, no other scripts' digits, which {@link Long#parseLong} would take); anything else is a 400.
 */
@Component("requestIds")
public class RequestIds {

    private static final Pattern DIGITS = Pattern.compile("[0-9]+");

    public long positive(String value, String name) {
        if (value == null || value.isBlank()) {
            throw Refusal.invalid(name + " is missing");
        }
        if (!DIGITS.matcher(value).matches()) {
            throw notAnId(value, name);
        }
        long id;
        try {
            id = Long.parseLong(value);
        } catch (NumberFormatException beyond64Bits) {
            throw notAnId(value, name);
        }
        if (id == 0) {
            throw notAnId(value, name);
        }
        return id;
    }

    private static Refusal notAnId(String value, String name) {
        return Refusal.invalid(name + " must be a positive 64-bit integer, got '" + abbreviate(value) + "'");
    }

    private static String abbreviate(String value) {
        return value.length() <= 40 ? value : value.substring(0, 40) + "…";
    }
}
