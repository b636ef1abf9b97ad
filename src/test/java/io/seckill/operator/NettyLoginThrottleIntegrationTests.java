package io.seckill.operator;

import io.seckill.support.OnNettyEngine;

/** The login throttle with the admin verbs on the netty-http engine, the actuator and the login form on Tomcat. */
@OnNettyEngine
class NettyLoginThrottleIntegrationTests extends LoginThrottleIntegrationTests {
}
