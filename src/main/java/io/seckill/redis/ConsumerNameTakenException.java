package io.seckill.redis;

/** Another live instance holds the consumer name this one was given: it must not start. */
public class ConsumerNameTakenException extends RuntimeException {

    private final String consumerName;
    private final String holder;

    ConsumerNameTakenException(String consumerName, String holder, String why) {
        super("seckill.stream.consumer-name '" + consumerName + "' is in use by another instance (" + holder
                + "): " + why + ". Give every instance a consumer name of its own.");
        this.consumerName = consumerName;
        this.holder = holder;
    }

    public String consumerName() {
        return consumerName;
    }

    public String holder() {
        return holder;
    }
}
