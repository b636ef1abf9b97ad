package io.seckill.ratelimit;

import io.seckill.support.OnNettyEngine;

/** The request budget against the netty-http engine, /api-doc included. */
@OnNettyEngine
class NettyRequestBudgetIntegrationTests extends RequestBudgetIntegrationTests {
}
