package io.seckill.monitoring;

import io.seckill.support.OnNettyEngine;

/** The OpenAPI document, the actuator and the probes with the API on the netty-http engine (the actuator on Tomcat's port). */
@OnNettyEngine
class NettyOperationsEndpointsIntegrationTests extends OperationsEndpointsIntegrationTests {
}
