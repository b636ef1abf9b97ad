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
import org.apache.camel.Endpoint;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.annotations.Component;
import org.apache.camel.support.DefaultComponent;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Reads Redis streams through a consumer group ({@code XREADGROUP}) and acknowledges each batch once its exchange
 * completed. Camel's {@code spring-redis} consumer knows pub/sub only; this is its counterpart for streams.
 */
@Component("redis-stream")
public class RedisStreamComponent extends DefaultComponent {

    @Metadata(label = "common", autowired = true, description = "The Redis connection factory (Spring Data Redis,"
            + " Lettuce) every endpoint uses unless it names its own.")
    private RedisConnectionFactory connectionFactory;

    @Override
    protected Endpoint createEndpoint(String uri, String remaining, Map<String, Object> parameters)
            throws Exception {
        RedisStreamEndpoint endpoint = new RedisStreamEndpoint(uri, this, remaining);
        endpoint.setConnectionFactory(connectionFactory);
        setProperties(endpoint, parameters);
        return endpoint;
    }

    public RedisConnectionFactory getConnectionFactory() {
        return connectionFactory;
    }

    public void setConnectionFactory(RedisConnectionFactory connectionFactory) {
        this.connectionFactory = connectionFactory;
    }
}
