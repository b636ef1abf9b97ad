package io.seckill.api;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Limits of the REST API.
 *
 * @param maxBodySize the largest request body taken; a larger one is answered 413 PAYLOAD_TOO_LARGE unread
 */
@Validated
@ConfigurationProperties("seckill.api")
public record ApiProperties(@NotNull DataSize maxBodySize) {

    /** Bodies are held in memory to be checked, so the limit stays small. */
    static final DataSize LARGEST_LIMIT = DataSize.ofMegabytes(16);

    public ApiProperties {
        if (maxBodySize != null && (maxBodySize.toBytes() < 1 || maxBodySize.compareTo(LARGEST_LIMIT) > 0)) {
            throw new IllegalArgumentException("seckill.api.max-body-size must be between 1B and " + LARGEST_LIMIT
                    + ", got " + maxBodySize);
        }
    }
}
