package io.seckill.order;

import io.seckill.support.OnNettyEngine;

/** The order API's tests against the netty-http engine. */
@OnNettyEngine
class NettyOrderApiIntegrationTests extends OrderApiIntegrationTests {
}
