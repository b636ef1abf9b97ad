package io.seckill.operator;

import io.seckill.support.OnNettyEngine;

/** The admin verbs' login against the netty-http engine, which serves the API without Spring Security. */
@OnNettyEngine
class NettyAdminVerbIntegrationTests extends AdminVerbIntegrationTests {
}
