package io.seckill.order;

import io.seckill.support.OnNettyEngine;

/**
 * The refusals from memory with the API on the netty-http engine, both instances: there they are answered before
 * any route (io.seckill.api.NettyRememberedRefusals), and must heal, open and stay exact all the same.
 */
@OnNettyEngine
class NettySaleViewIntegrationTests extends SaleViewIntegrationTests {
}
