package io.seckill.redis;

import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.codec.ToByteBufEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.ByteBuffer;

/**
 * Lettuce's UTF-8 codec for the connection of {@link AsyncScripts}, telling Lettuce each key's and argument's exact
 * encoded length. With {@link StringCodec#UTF8} (three bytes a char at most, an estimate) Lettuce encodes every key
 * and argument into a pooled buffer of its own and then copies it into the command's: sixteen buffers taken and
 * released per admission (six keys, ten arguments), each passing Netty's leak detector, about a twentieth of the
 * JVM's CPU at the saturated intake. Told the exact length, it writes them straight into the command's buffer. The
 * bytes on the wire are the same ({@code ExactUtf8CodecTests}); replies are decoded as {@link StringCodec#UTF8} does.
 */
final class ExactUtf8Codec implements RedisCodec<String, String>, ToByteBufEncoder<String, String> {

    static final ExactUtf8Codec INSTANCE = new ExactUtf8Codec();

    private static final StringCodec UTF8 = StringCodec.UTF8;

    private ExactUtf8Codec() {
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

    @Override
    public void encodeKey(String key, ByteBuf target) {
        write(key, target);
    }

    @Override
    public void encodeValue(String value, ByteBuf target) {
        write(value, target);
    }

    @Override
    public ByteBuffer encodeKey(String key) {
        return UTF8.encodeKey(key);
    }

    @Override
    public ByteBuffer encodeValue(String value) {
        return UTF8.encodeValue(value);
    }

    @Override
    public String decodeKey(ByteBuffer bytes) {
        return UTF8.decodeKey(bytes);
    }

    @Override
    public String decodeValue(ByteBuffer bytes) {
        return UTF8.decodeValue(bytes);
    }

    private static void write(String text, ByteBuf target) {
        if (text != null) {
            ByteBufUtil.writeUtf8(target, text);
        }
    }
}
