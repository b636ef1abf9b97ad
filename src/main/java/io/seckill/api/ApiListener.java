package io.seckill.api;

/** Where the Netty engine's API listens: {@code server.address} (any, if unset) and {@code server.port}. */
public record ApiListener(String host, int port) {
}
