/*
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.
 * The ASF licenses this file to You under the Apache License, Version 2.0
 * (the "License"); you may not use this file except in compliance with
 * the License.  You may obtain a copy of the License at
 *
 *      http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package org.apache.camel.component.redis.stream;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;

/**
 * A Lua script shipped in this package (not one an operator edits: the component relies on what it does), on one
 * stream key, answering a number. Run by EVALSHA; Spring falls back to EVAL when Redis answers NOSCRIPT (a Redis
 * restarted since).
 */
final class PackagedScript {

    private final DefaultRedisScript<Long> script;
    private final StringRedisTemplate redis;

    /** Fails at once when the script is missing, not at its first call. */
    PackagedScript(String fileName, StringRedisTemplate redis) {
        this.script = new DefaultRedisScript<>(read(fileName), Long.class);
        this.redis = redis;
    }

    long run(String streamKey, List<Object> args) {
        return redis.execute(script, List.of(streamKey), args.toArray());
    }

    private static String read(String fileName) {
        try (InputStream in = PackagedScript.class.getResourceAsStream(fileName)) {
            if (in == null) {
                throw new IllegalStateException("Script " + fileName + " is missing beside " + PackagedScript.class);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
