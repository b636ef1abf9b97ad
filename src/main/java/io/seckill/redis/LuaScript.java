package io.seckill.redis;

import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * One script from {@code lua/}, run by EVALSHA (Spring falls back to EVAL when Redis answers NOSCRIPT, for
 * example after a restart of Redis).
 *
 * @param name file name without {@code .lua}
 * @param keyCount the number of KEYS the script takes, from its file name
 */
public record LuaScript<T>(String name, int keyCount, RedisScript<T> script, StringRedisTemplate redis) {

    public T run(List<String> keys, Object... args) {
        requireKeys(keys);
        return redis.execute(script, keys, args);
    }

    /** Fails a call with as many keys as the file name does not say. */
    public void requireKeys(List<String> keys) {
        if (keys.size() != keyCount) {
            throw new IllegalArgumentException(name + " takes " + keyCount + " keys, got " + keys.size());
        }
    }
}
