package io.seckill.operator;

import io.seckill.support.OnNettyEngine;

/**
 * The service out of the box against the netty-http engine: its peer is Netty's channel's, its headers Netty's
 * request's; the console and Jolokia are not on Tomcat's management port either.
 */
@OnNettyEngine
class NettyConsoleOffIntegrationTests extends ConsoleOffIntegrationTests {
}
