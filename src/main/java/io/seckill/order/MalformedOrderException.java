package io.seckill.order;

/** A stream entry that can never become an order (a field missing or not a number): retrying cannot help. */
public class MalformedOrderException extends RuntimeException {

    public MalformedOrderException(String message) {
        super(message);
    }
}
