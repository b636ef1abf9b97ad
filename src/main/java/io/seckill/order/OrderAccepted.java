package io.seckill.order;

/** The 202 answer: the order is in the stream and will reach the database. */
public record OrderAccepted(String orderId, long voucherId, long userId, String status) {

    static OrderAccepted queued(long orderId, long voucherId, long userId) {
        return new OrderAccepted(Long.toString(orderId), voucherId, userId, "QUEUED");
    }
}
