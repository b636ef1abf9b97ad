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

import java.util.Map;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/**
 * Whether a {@code redis-stream:} consumer is reading: DOWN while the last read of any of its streams failed (Redis
 * unreachable, the group deleted), UP again after its next good read. Camel calls it through the route's consumer
 * check ({@code consumer:<route id>}) while the route runs; a stopped route is the route check's to report.
 */
class RedisStreamHealthCheck extends AbstractHealthCheck {

    private final RedisStreamConsumer consumer;
    private final RedisStreamEndpoint endpoint;

    RedisStreamHealthCheck(RedisStreamConsumer consumer, RedisStreamEndpoint endpoint) {
        super("camel", "redis-stream:" + endpoint.getConsumerName());
        this.consumer = consumer;
        this.endpoint = endpoint;
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        Map<String, String> failures = consumer.readFailures();
        builder.detail("redis-stream.consumer", endpoint.getConsumerName());
        builder.detail("redis-stream.streams", endpoint.getStreams());
        if (failures.isEmpty()) {
            builder.up();
        } else {
            builder.down();
            builder.message("Reading failed: " + failures);
        }
    }
}
