package io.seckill.api;

import io.seckill.support.OnNettyEngine;

/** The malformed-request table against the netty-http engine: the same answers, word for word in status and code. */
@OnNettyEngine
class NettyMalformedRequestIntegrationTests extends MalformedRequestIntegrationTests {
}
