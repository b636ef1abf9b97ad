package io.seckill.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.stereotype.Component;

/**
 * Loads the scripts of {@code lua/} by name ({@code <verbNoun>-<numberOfKeys>.lua}). A missing script or one
 * Redis cannot compile fails the start-up, not the first buyer.
 */
@Component
public class LuaScripts {

    private static final Pattern FILE_NAME = Pattern.compile("([A-Za-z]+)-(\\d+)\\.lua");

    private final ResourceLoader resources;
    private final StringRedisTemplate redis;

    public LuaScripts(ResourceLoader resources, StringRedisTemplate redis) {
        this.resources = resources;
        this.redis = redis;
    }

    /** @param fileName for example {@code admitOrder-6.lua} */
    public <T> LuaScript<T> load(String fileName, Class<T> resultType) {
        Matcher name = FILE_NAME.matcher(fileName);
        if (!name.matches()) {
            throw new IllegalArgumentException("Script names are <verbNoun>-<numberOfKeys>.lua, not " + fileName);
        }
        Resource resource = resources.getResource("classpath:lua/" + fileName);
        if (!resource.exists()) {
            throw new IllegalStateException("Lua script lua/" + fileName + " is missing");
        }
        String text = read(resource);
        DefaultRedisScript<T> script = new DefaultRedisScript<>(text, resultType);
        // SCRIPT LOAD once now: a syntax error stops the start-up, and the first EVALSHA finds it cached.
        redis.execute(connection -> connection.scriptingCommands().scriptLoad(text.getBytes(StandardCharsets.UTF_8)),
                true);
        return new LuaScript<>(name.group(1), Integer.parseInt(name.group(2)), script, redis);
    }

    private static String read(Resource resource) {
        try {
            return resource.getContentAsString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
