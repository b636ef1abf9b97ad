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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One entry read from a Redis stream: the stream it came from, its id and its fields. The body of a
 * {@code redis-stream:} exchange is a list of them, in stream order.
 */
public record StreamEntry(String stream, String id, Map<String, String> fields) {

    public StreamEntry {
        fields = fields == null ? Map.of() : Map.copyOf(fields);
    }

    /** The ids of these entries per stream, each list in the entries' order: Redis commands take one key. */
    public static Map<String, List<String>> idsByStream(List<StreamEntry> entries) {
        Map<String, List<String>> idsByStream = new LinkedHashMap<>();
        for (StreamEntry entry : entries) {
            idsByStream.computeIfAbsent(entry.stream(), stream -> new ArrayList<>()).add(entry.id());
        }
        return idsByStream;
    }
}
