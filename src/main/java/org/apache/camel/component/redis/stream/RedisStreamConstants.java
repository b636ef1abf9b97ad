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

import org.apache.camel.spi.Metadata;

/** The headers a {@code redis-stream:} consumer sets on each exchange. */
public final class RedisStreamConstants {

    @Metadata(label = "consumer", description = "The key of the stream the batch was read from.",
            javaType = "String")
    public static final String STREAM = "CamelRedisStreamKey";
    @Metadata(label = "consumer", description = "True on a batch of new entries: none was delivered to any consumer"
            + " of the group before. False on a consumer's own pending entries re-read at start-up, some"
            + " of which it may have processed already.", javaType = "Boolean")
    public static final String NEW_ENTRIES = "CamelRedisStreamNewEntries";

    private RedisStreamConstants() {
    }
}
