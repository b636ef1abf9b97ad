package io.seckill.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.ValueOutput;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledHeapByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The admission connection's codec: the same command on the wire as Lettuce's UTF-8 codec, in one buffer. */
class ExactUtf8CodecTests {

    /** ASCII, three-byte characters, a surrogate pair, an unpaired surrogate (written as '?'), nothing at all. */
    private static final List<String> KEYS = List.of("seckill:{s0}:voucher:6", "手机:{s0}", "😀", "a\uD800b", "");
    private static final List<String> VALUES = List.of("9223372036854775807", "10.0.0.1", "Ünïcødé ✓", "\uDC00", "");

    @Test
    void writesTheSameCommandAsLettucesUtf8Codec() {
        assertThat(encoded(ExactUtf8Codec.INSTANCE, new CountingAllocator()))
                .isEqualTo(encoded(StringCodec.UTF8, new CountingAllocator()));
    }

    @Test
    void writesEveryArgumentStraightIntoTheCommandsBuffer() {
        CountingAllocator exact = new CountingAllocator();
        CountingAllocator lettuces = new CountingAllocator();
        encoded(ExactUtf8Codec.INSTANCE, exact);
        encoded(StringCodec.UTF8, lettuces);
        assertThat(exact.buffers).hasValue(1);
        assertThat(lettuces.buffers).hasValue(1 + KEYS.size() + VALUES.size());
    }

    @Test
    void countsTheBytesItWrites() {
        for (String text : List.of("seckill", "手机", "😀", "a\uD800b", "\uDC00", "")) {
            ByteBuf target = UnpooledByteBufAllocator.DEFAULT.heapBuffer();
            ExactUtf8Codec.INSTANCE.encodeValue(text, target);
            assertThat(ExactUtf8Codec.INSTANCE.estimateSize(text)).as(text).isEqualTo(target.readableBytes());
            target.release();
        }
    }

    @Test
    void decodesRepliesAsUtf8() {
        String text = "Ünïcødé 手机 😀";
        assertThat(ExactUtf8Codec.INSTANCE.decodeValue(StandardCharsets.UTF_8.encode(text))).isEqualTo(text);
        assertThat(ExactUtf8Codec.INSTANCE.decodeKey(ExactUtf8Codec.INSTANCE.encodeKey(text))).isEqualTo(text);
    }

    private static String encoded(RedisCodec<String, String> codec, CountingAllocator allocator) {
        CommandArgs<String, String> args = new CommandArgs<>(codec).add("0123456789abcdef").add(KEYS.size());
        KEYS.forEach(args::addKey);
        VALUES.forEach(args::addValue);
        Command<String, String, String> command = new Command<>(CommandType.EVALSHA, new ValueOutput<>(codec), args);
        ByteBuf target = allocator.buffer();
        try {
            command.encode(target);
            return target.toString(StandardCharsets.UTF_8);
        } finally {
            target.release();
        }
    }

    /** Counts the buffers taken from it: the command's own, and any Lettuce takes to encode an argument in. */
    private static final class CountingAllocator extends AbstractByteBufAllocator {

        final AtomicInteger buffers = new AtomicInteger();

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            buffers.incrementAndGet();
            return new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity);
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            return newHeapBuffer(initialCapacity, maxCapacity);
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }
    }
}
