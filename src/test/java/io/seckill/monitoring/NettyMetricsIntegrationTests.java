package io.seckill.monitoring;

import io.seckill.support.OnNettyEngine;

/** The metrics of every answer, write and dead letter with the API on the netty-http engine. */
@OnNettyEngine
class NettyMetricsIntegrationTests extends MetricsIntegrationTests {
}
