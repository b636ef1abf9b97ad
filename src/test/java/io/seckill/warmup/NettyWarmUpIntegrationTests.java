package io.seckill.warmup;

import io.seckill.support.OnNettyEngine;

/** The warm-up with the API on the netty-http engine: its requests through Netty, everyone else's 503 until done. */
@OnNettyEngine
class NettyWarmUpIntegrationTests extends WarmUpIntegrationTests {
}
