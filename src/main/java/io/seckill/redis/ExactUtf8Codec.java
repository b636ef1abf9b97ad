package io.seckill.redis;

import io.lettuce.core.codec.StringCodec;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;

/**
 * Lettuce's UTF-8 codec for the connection of {@link AsyncScripts}, telling Lettuce each key's and argument's exact
 * encoded length. {@link StringCodec#UTF8} estimates it (three bytes a char at most), and for a codec whose estimate
 * is not exact Lettuce encodes every key and argument into a pooled buffer of its own and then copies it into the
 * command's: sixteen buffers taken and released per admission (six keys, ten arguments), each passing Netty's leak
 * detector, about a twentieth of the JVM's CPU at the saturated intake. Told the exact length, it has the codec write
 * them straight into the command's buffer. Everything else is {@link StringCodec}'s: the bytes on the wire are the
 * same ({@code ExactUtf8CodecTests}), and replies are decoded as before.
 */
final class ExactUtf8Codec extends StringCodec {

    static final ExactUtf8Codec INSTANCE = new ExactUtf8Codec();

    private ExactUtf8Codec() {
        super(StandardCharsets.UTF_8);
    }

    /** Netty's count is the length {@link ByteBufUtil#writeUtf8} writes, an unpaired surrogate as one '?'. */
    @Override
    public int estimateSize(Object keyOrValue) {
        return keyOrValue instanceof CharSequence text ? ByteBufUtil.utf8Bytes(text) : 0;
    }

    @Override
    public boolean isEstimateExact() {
        return true;
    }
}
