package io.seckill.api;

import io.seckill.refusal.RequestIds;

/**
 * The order placement's path, {@code /api/vouchers/{id}/orders}, as the Netty engine's handlers read it from a
 * request's URI before any route: the flood of a sale is this one request, so it is recognised here without Camel's
 * general path matching. What this does not recognise goes on to Camel, which answers it as before.
 */
final class OrderPath {

    /** The REST DSL's path of the order placement (routes/order-api.camel.yaml), without its leading slash. */
    static final String TEMPLATE = "api/vouchers/{id}/orders";

    private static final String START = "/api/vouchers/";
    private static final String END = "/orders";

    private OrderPath() {
    }

    /** The URI's path: all of it before a query. */
    static String of(String uri) {
        int query = uri.indexOf('?');
        return query < 0 ? uri : uri.substring(0, query);
    }

    /**
     * The voucher of an order path.
     *
     * @return its id, or 0 when {@code path} is not {@code /api/vouchers/{id}/orders} with an id of plain ASCII digits
     *         ({@link RequestIds#parse})
     */
    static long voucherId(String path) {
        if (!path.startsWith(START) || !path.endsWith(END) || path.length() <= START.length() + END.length()) {
            return 0;
        }
        return RequestIds.parse(path.substring(START.length(), path.length() - END.length()));
    }
}
