package io.seckill.order;

import io.seckill.support.OnNettyEngine;

/** The flash crowd against the netty-http engine: every unit to one buyer once, every other request told why. */
@OnNettyEngine
class NettyFlashCrowdIntegrationTests extends FlashCrowdIntegrationTests {
}
