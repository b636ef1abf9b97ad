package io.seckill.api;

import org.springframework.stereotype.Component;

/** Ids in paths and the {@code X-User-Id} header: positive 64-bit integers, anything else is a 400. */
@Component("requestIds")
public class RequestIds {

    public long positive(String value, String name) {
        if (value == null || value.isBlank()) {
            throw ApiException.badRequest(name + " is missing");
        }
        long id;
        try {
            id = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw ApiException.badRequest(name + " must be a positive 64-bit integer, got '" + abbreviate(value) + "'");
        }
        if (id <= 0) {
            throw ApiException.badRequest(name + " must be a positive 64-bit integer, got " + id);
        }
        return id;
    }

    private static String abbreviate(String value) {
        return value.length() <= 40 ? value : value.substring(0, 40) + "…";
    }
}
