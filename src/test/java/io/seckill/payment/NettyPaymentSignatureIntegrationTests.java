package io.seckill.payment;

import io.seckill.support.OnNettyEngine;

/** Signed payments against the netty-http engine: the signature read from Netty's request headers. */
@OnNettyEngine
class NettyPaymentSignatureIntegrationTests extends PaymentSignatureIntegrationTests {
}
