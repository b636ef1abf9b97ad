package io.seckill.ratelimit;

import io.seckill.support.OnNettyEngine;

/** The rate limits against the netty-http engine: the client address is Netty's peer, behind trusted proxies. */
@OnNettyEngine
class NettyRateLimitIntegrationTests extends RateLimitIntegrationTests {
}
