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
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import redis.embedded.RedisServer;

/**
 * A real redis-server for a test class (the embedded-redis jar) on a free port, nothing persisted, and a connection
 * factory to it: what the component gets from the registry, and what the test checks Redis with. Started before the
 * class's first test and stopped after its last one:
 *
 * <pre>{@code @RegisterExtension static final RedisServerExtension redisServer = new RedisServerExtension();}</pre>
 */
final class RedisServerExtension implements BeforeAllCallback, AfterAllCallback {

    private RedisServer server;
    private LettuceConnectionFactory connectionFactory;
    private StringRedisTemplate redis;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        int port = freePort();
        server = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"")
                .setting("appendonly no").build();
        server.start();
        connectionFactory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port));
        connectionFactory.afterPropertiesSet();
        connectionFactory.start();
        redis = new StringRedisTemplate(connectionFactory);
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (connectionFactory != null) {
            connectionFactory.destroy();
            connectionFactory = null;
        }
        if (server != null) {
            server.stop();
            server = null;
        }
    }

    LettuceConnectionFactory connectionFactory() {
        return connectionFactory;
    }

    StringRedisTemplate redis() {
        return redis;
    }

    /** SIGTERM, then the same port again: a Redis that restarted and, persisting nothing, lost every key. */
    void restart() throws IOException {
        server.stop();
        server.start();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
